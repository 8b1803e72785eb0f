/**
 * Mail through nodemailer. With SMTP settings it sends; without, each message is
 * written to an outbox folder under the data directory and its links are logged, so a
 * one-machine start can still finish registration and password recovery.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "../config";

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
    const transport = smtp.url
      ? nodemailer.createTransport(smtp.url)
      : nodemailer.createTransport({
          host: smtp.host,
          port: smtp.port ?? 587,
          secure: smtp.port === 465,
          auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
        });
    return {
      async send(mail) {
        await transport.sendMail({ from: smtp.from, ...mail });
      },
      describe: () => "smtp",
    };
  }
  const outbox = join(config.dataDir, "outbox");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  let seq = 0;
  return {
    async send(mail) {
      mkdirSync(outbox, { recursive: true });
      const info = await transport.sendMail({ from: smtp.from, ...mail });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = join(outbox, `${stamp}-${++seq}-${mail.to.replace(/[^\w@.-]/g, "_")}.eml`);
      writeFileSync(file, info.message as Buffer);
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      log(`邮件未配置 SMTP，已写入 ${file}（收件人 ${mail.to}）${links.length ? `，链接：${links.join(" ")}` : ""}`);
    },
    describe: () => outbox,
  };
}
