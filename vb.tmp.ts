import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seedCertificates } from "./bench/certificates-data";
import { checkCertificate } from "./src/server/certificate/verify";
const dir = mkdtempSync(join(tmpdir(), "vb-"));
const { db } = await seedCertificates(`file:${join(dir, "b.db")}`, 1000);
const rows = await db.selectFrom("certificate").select(["number", "holder_name", "signature"]).execute();
for (const mode of ["nocode", "code", "code"]) {
  const t = performance.now();
  for (let i = 0; i < 3000; i++) { const r = rows[i % rows.length]; await checkCertificate(db, { number: r.number, name: r.holder_name, code: mode === "code" ? r.signature : undefined }); }
  console.log(mode, ((performance.now() - t) / 3000).toFixed(3), "ms/call");
}
