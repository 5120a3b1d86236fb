// The suite's object storage as tests inspect it: whether an object is there.
import { bucket, storage } from '../../platform/storage.js';

/** Whether the bucket holds the key; only NotFound (or NoSuchKey) counts as absent, any other failure is thrown. */
export async function objectExists(key: string): Promise<boolean> {
  try {
    await storage().statObject(bucket(), key);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFound' || (error as { code?: string }).code === 'NoSuchKey')
      return false;
    throw error;
  }
}
