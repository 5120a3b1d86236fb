// The S3 client (MinIO locally) and the one bucket Folio keeps its bytes in.
import * as Minio from 'minio';
import { config } from './config.js';

export function createStorage(settings = config().storage): Minio.Client {
  const url = new URL(settings.endpoint);
  return new Minio.Client({
    endPoint: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    useSSL: url.protocol === 'https:',
    accessKey: settings.accessKey,
    secretKey: settings.secretKey,
    region: settings.region,
    pathStyle: true,
  });
}

let shared: Minio.Client | undefined;

export function storage(): Minio.Client {
  shared ??= createStorage();
  return shared;
}

export function bucket(): string {
  return config().storage.bucket;
}

/** Creates the bucket when missing; safe to call at every start. */
export async function ensureBucket(client = storage(), name = bucket(), region = config().storage.region) {
  if (!(await client.bucketExists(name))) {
    try {
      await client.makeBucket(name, region);
    } catch (error) {
      // Another process may have created it between the check and the call.
      if (!(await client.bucketExists(name))) throw error;
    }
  }
}
