/** The blob store the configuration asks for (Config.storage). */
import type { Config } from "../config";
import type { BlobStore } from "./blob-store";
import { LocalBlobStore } from "./local";

export type { BlobStore, StoredBlob } from "./blob-store";

export function createBlobStore(config: Pick<Config, "storage">): BlobStore {
  switch (config.storage.driver) {
    case "local":
      return new LocalBlobStore(config.storage.blobDir);
  }
}
