/** Import and export jobs as the API tests wait for them. */
/** Anything that GETs a path and answers { status, body } (the in-process Client, the cluster's HttpClient). */
interface Getter {
  get(path: string): Promise<{ status: number; body: { data?: any } }>;
}

/** Polls /Backend/Common/job/:id every 25 ms until the job leaves running/applying (at most `timeoutMs`, 10 s by default); returns the job's view. */
export async function waitJob(c: Getter, jobId: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await c.get(`/Backend/Common/job/${jobId}`);
    if (!["running", "applying"].includes(r.body.data?.status)) return r.body.data;
    if (Date.now() > deadline) throw new Error(`job did not finish: ${JSON.stringify(r.body.data)}`);
    await new Promise((res) => setTimeout(res, 25));
  }
}
