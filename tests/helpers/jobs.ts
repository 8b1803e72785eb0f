/** Import and export jobs as the API tests wait for them. */
import type { Client } from "./app";

/** Polls /Backend/Common/job/:id every 25 ms (at most 400 times) until the job leaves running/applying; returns the job's view. */
export async function waitJob(c: Client, jobId: string) {
  for (let i = 0; i < 400; i++) {
    const r = await c.get(`/Backend/Common/job/${jobId}`);
    if (!["running", "applying"].includes(r.body.data.status)) return r.body.data;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error("job did not finish");
}
