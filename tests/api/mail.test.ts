/** With SMTP settings, mails go through nodemailer to the SMTP server (a local sink here). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { Client, decodeMail, makeApp, type TestApp } from "../helpers/app";

describe("mail over SMTP", () => {
  const received: { to: string[]; raw: string }[] = [];
  let server: SMTPServer;
  let t: TestApp;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, cb) {
        let raw = "";
        stream.on("data", (c: Buffer) => (raw += c.toString("utf8")));
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          cb();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const port = (server.server.address() as AddressInfo).port;
    t = await makeApp("sqlite", { env: { SMTP_HOST: "127.0.0.1", SMTP_PORT: String(port) } });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it("sends the password recovery mail to the account's address, not to the outbox", async () => {
    const r = await new Client(t).post("/Backend/Common/account/recovery/request", { account: "student" });
    expect(r.body.error).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0].to).toEqual(["student@demo.saiwu.local"]);
    const mail = decodeMail(received[0].raw.replace(/\r\n/g, "\n"));
    expect(mail.subject).toBe("【赛务平台】找回密码");
    expect(mail.text).toContain("/account/claim-account?token=");
    expect(t.mails()).toEqual([]);
  });
});
