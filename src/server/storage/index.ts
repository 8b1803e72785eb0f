/** The blob store the configuration asks for (Config.storage). */
import type { Config } from "../config";
import type { BlobStore } from "./blob-store";
import { LocalBlobStore } from "./local";
import { S3BlobStore } from "./s3";

export type { BlobStore, StoredBlob } from "./blob-store";

export function createBlobStore(config: Pick<Config, "storage">): BlobStore {
  switch (config.storage.driver) {
    case "local":
      return new LocalBlobStore(config.storage.blobDir);
    case "s3":
      return new S3BlobStore(config.storage.s3);
  }
}
