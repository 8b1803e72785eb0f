/** The one multipart upload with progress that work attachments and defence material share. */
import { afterEach, describe, expect, test, vi } from "vitest";
import { uploadWithProgress } from "../../src/client/upload";
import { NETWORK_ERROR_TEXT } from "../../src/shared/errors";

/** A stand-in for XMLHttpRequest recording what the upload sets and sends. */
class FakeXhr {
  static last: FakeXhr;
  method = "";
  url = "";
  headers: Record<string, string> = {};
  withCredentials = false;
  status = 0;
  responseText = "";
  sent: FormData | null = null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.sent = body;
  }
  answer(status: number, text: string) {
    this.status = status;
    this.responseText = text;
    this.onload!();
  }
}

const file = () => new File([new Uint8Array([1, 2, 3])], "答辩材料.pdf", { type: "application/pdf" });

describe("uploadWithProgress", () => {
  afterEach(() => vi.unstubAllGlobals());

  test("posts the fields first, then the file, with credentials, and reports progress below 100 until the answer", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const progress: number[] = [];
    const done = uploadWithProgress<{ id: number }>("/Backend/Work/work/7/files", { kind: "docs" }, file(), (p) =>
      progress.push(p),
    );
    const xhr = FakeXhr.last;
    expect([xhr.method, xhr.url, xhr.withCredentials, xhr.headers.Accept]).toEqual([
      "POST",
      "/Backend/Work/work/7/files",
      true,
      "application/json",
    ]);
    expect([...xhr.sent!.keys()]).toEqual(["kind", "file"]);
    expect(xhr.sent!.get("kind")).toBe("docs");
    expect((xhr.sent!.get("file") as File).name).toBe("答辩材料.pdf");
    xhr.upload.onprogress!({ lengthComputable: true, loaded: 1, total: 3 });
    xhr.upload.onprogress!({ lengthComputable: false, loaded: 2, total: 0 });
    xhr.upload.onprogress!({ lengthComputable: true, loaded: 3, total: 3 });
    expect(progress).toEqual([33, 99]);
    xhr.answer(201, JSON.stringify({ error: 0, info: "已上传", data: { id: 5 } }));
    expect(await done).toEqual({ error: 0, info: "已上传", data: { id: 5 }, status: 201 });
  });

  test("answers the server's refusal, a reply that is not JSON and a network failure as envelopes", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const refused = uploadWithProgress("/x", {}, file(), () => {});
    expect([...FakeXhr.last.sent!.keys()]).toEqual(["file"]);
    FakeXhr.last.answer(400, JSON.stringify({ error: 400, info: "文件类型不符合要求" }));
    expect(await refused).toEqual({ error: 400, info: "文件类型不符合要求", data: undefined, status: 400 });

    const bad = uploadWithProgress("/x", {}, file(), () => {});
    FakeXhr.last.answer(502, "<html>Bad Gateway</html>");
    expect(await bad).toEqual({ error: 502, info: "", status: 502 });

    const lost = uploadWithProgress("/x", {}, file(), () => {});
    FakeXhr.last.onerror!();
    expect(await lost).toEqual({ error: -1, info: NETWORK_ERROR_TEXT, status: 0 });
  });
});
