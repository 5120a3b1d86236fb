// The suite's object storage as tests inspect it: whether an object is there, what a workspace holds.
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

/** The objects and open multipart uploads storage holds under the workspace's prefix. */
export async function storedUnder(workspaceUuid: string): Promise<{ objects: string[]; uploads: string[] }> {
  const prefix = `drive/${workspaceUuid}/`;
  const objects: string[] = [];
  for await (const item of storage().listObjectsV2(bucket(), prefix, true))
    objects.push((item as { name: string }).name);
  const uploads: string[] = [];
  for await (const upload of storage().listIncompleteUploads(bucket(), prefix, true))
    uploads.push((upload as { key: string }).key);
  return { objects, uploads };
}
