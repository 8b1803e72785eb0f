/** Certificate tables: issued certificates, signing keys, numbering, templates, backgrounds and prints. */
import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./common";

/** One version of an issued certificate (0017); see src/server/certificate/. */
export interface CertificateTable {
  id: Generated<number>;
  number: string;
  version: number;
  holder_kind: "author" | "teacher" | "school";
  holder_user_id: number | null;
  holder_school_id: number | null;
  contest_id: number;
  work_id: number | null;
  award_level_id: number | null;
  holder_name: string;
  school_name: string;
  work_title: string | null;
  category_name: string | null;
  award_name: string;
  contest_name: string;
  /** YYYY-MM-DD: the publication's date */
  contest_date: string;
  status: "valid" | "revoked" | "replaced";
  status_at: Timestamp | null;
  status_reason: string | null;
  signature: string;
  key_id: string;
  issued_at: Timestamp;
}

/** An Ed25519 public key that signs or signed certificates (0017). private_key is always null: the private key lives outside the database (certificate/key-source.ts); older versions stored it here and are moved out at start. */
export interface CertificateKeyTable {
  id: string;
  public_key: string;
  private_key: string | null;
  /** 1: the signing key; null otherwise */
  active: number | null;
  valid_from: Timestamp;
  valid_to: Timestamp | null;
}

export interface CertificateSequenceTable {
  prefix: string;
  last: number;
}

/** A contest's saved certificate layout for one award kind (0018); fields: JSON TemplateField[]. */
export interface CertificateTemplateTable {
  id: Generated<number>;
  contest_id: number;
  award_kind: "work" | "teacher" | "school";
  orientation: "landscape" | "portrait";
  background_sha256: string | null;
  fields: string;
  updated_at: Timestamp;
  updated_by: number | null;
}

/** A background image uploaded for a template (0018): a checked PNG or JPEG in the blob store. */
export interface CertificateBackgroundTable {
  id: Generated<number>;
  sha256: string;
  mime: "image/png" | "image/jpeg";
  width: number;
  height: number;
  size: number;
  uploaded_by: number;
  uploaded_at: Timestamp;
}

/** One print or download of a certificate version (0018). */
export interface CertificatePrintTable {
  id: Generated<number>;
  certificate_id: number;
  user_id: number;
  mode: "browser" | "pdf" | "download";
  /** 1: printed before */
  reprint: Generated<Flag>;
  job_id: string | null;
  printed_at: Timestamp;
}
