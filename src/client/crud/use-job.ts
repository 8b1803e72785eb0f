/** Polls an import or export job until it leaves running/applying. */
import { useEffect, useState } from "react";
import type { JobView } from "../../shared/crud/list";
import { request } from "../request";

export const JOB_POLL_MS = 500;

/** `revision` restarts polling of the same job (e.g. after confirming an import). */
export function useJob(jobId: string | null, revision = 0) {
  const [job, setJob] = useState<JobView | null>(null);
  useEffect(() => {
    setJob(null);
    if (!jobId) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      const reply = await request<JobView>(`/Backend/Common/job/${jobId}`, { silent: true, notify: false });
      if (stop) return;
      if (reply.error === 0 && reply.data) {
        setJob(reply.data);
        if (reply.data.status === "running" || reply.data.status === "applying")
          timer = setTimeout(() => void tick(), JOB_POLL_MS);
      } else {
        setJob({
          id: jobId,
          kind: "",
          resource: "",
          status: "failed",
          processed: 0,
          total: 0,
          message: reply.info || "任务状态获取失败",
          result: null,
          downloadUrl: null,
        });
      }
    };
    void tick();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [jobId, revision]);
  return job;
}

export const percentOf = (job: JobView | null) =>
  job && job.total ? Math.min(100, Math.round((job.processed / job.total) * 100)) : 0;

/** Uploads one file as multipart form data with upload progress (fetch has none). */
export function uploadFile(
  url: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<{ status: number; error: number; info: string; data?: { jobId: string } }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      try {
        resolve({ status: xhr.status, ...JSON.parse(xhr.responseText) });
      } catch {
        resolve({ status: xhr.status, error: xhr.status || -1, info: "上传失败" });
      }
    };
    xhr.onerror = () => resolve({ status: 0, error: -1, info: "网络异常，上传失败" });
    const form = new FormData();
    form.append("file", file);
    xhr.send(form);
  });
}
