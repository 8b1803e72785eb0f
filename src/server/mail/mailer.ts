/**
 * Mail through nodemailer. With SMTP settings it sends; without, each message is
 * written to an outbox folder under the data directory and its links are logged, so a
 * one-machine start can still finish registration and password recovery. nodemailer and
 * its transport are loaded by the first mail, not at start (about 8 MB most processes need
 * only now and then).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Transporter } from "nodemailer";
import type { Config } from "../config";

/** The transport made by `make` on first use (once, even when two mails start together). */
function lazyTransport(make: (nm: typeof import("nodemailer").default) => Transporter): () => Promise<Transporter> {
  let transport: Promise<Transporter> | undefined;
  return () => (transport ??= import("nodemailer").then((m) => make(m.default)));
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** "smtp" or the outbox folder */
  describe(): string;
}

export function createMailer(config: Config, log: (msg: string) => void): Mailer {
  const { smtp } = config;
  if (smtp.url || smtp.host) {
    const transport = lazyTransport((nodemailer) =>
      smtp.url
        ? nodemailer.createTransport(smtp.url)
        : nodemailer.createTransport({
            host: smtp.host,
            port: smtp.port ?? 587,
            secure: smtp.port === 465,
            auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
          }),
    );
    return {
      async send(mail) {
        await (await transport()).sendMail({ from: smtp.from, ...mail });
      },
      describe: () => "smtp",
    };
  }
  const outbox = join(config.dataDir, "outbox");
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
  );
  let seq = 0;
  return {
    async send(mail) {
      mkdirSync(outbox, { recursive: true });
      const info = await (await transport()).sendMail({ from: smtp.from, ...mail });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = join(outbox, `${stamp}-${++seq}-${mail.to.replace(/[^\w@.-]/g, "_")}.eml`);
      writeFileSync(file, info.message as Buffer);
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      log(`邮件未配置 SMTP，已写入 ${file}（收件人 ${mail.to}）${links.length ? `，链接：${links.join(" ")}` : ""}`);
    },
    describe: () => outbox,
  };
}
