/**
 * The batch report of a contest (root, contest admins): choose a contest and a threshold,
 * start the job, watch its progress bar (the works checked so far), then see the clusters of
 * similar works and download every pair as .xlsx.
 */
import { useState } from "react";
import { Link } from "react-router";
import { Alert, Button, Card, Checkbox, InputNumber, List, Progress, Select, Space, Tag, Typography } from "antd";
import { DownloadOutlined, PlayCircleOutlined } from "@ant-design/icons";
import { comparePath, type DupReportResult } from "../../shared/dupcheck/api";
import { percentOf, useJob } from "../crud/use-job";
import { startReport, useReportContests } from "./api";
import { LevelTag, pct, WorkRefText } from "./parts";

const LEVEL_NAMES: Record<string, string> = { national: "国赛", provincial: "省级赛", school: "校级赛" };
const PAIRS_SHOWN = 12;

export function ReportPanel() {
  const contests = useReportContests(true);
  const [contestId, setContestId] = useState<number | undefined>();
  const [threshold, setThreshold] = useState<number | null>(null);
  const [outside, setOutside] = useState(true);
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const job = useJob(jobId);
  const result = job?.status === "done" ? (job.result as DupReportResult | null) : null;

  const start = async () => {
    if (!contestId) return;
    setError(null);
    setJobId(null);
    const r = await startReport(contestId, threshold === null ? undefined : threshold / 100, outside);
    if (r.error !== 0 || !r.data) setError(r.info || "查重报告启动失败");
    else setJobId(r.data.jobId);
  };

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="dup-report">
      <Typography.Text type="secondary">
        检查所选赛事（含下级赛事）的全部已提交作品，列出相似度达到阈值的作品对，并把相互关联的作品分为一组，可导出为 .xlsx。
      </Typography.Text>
      <Space wrap>
        <Select
          style={{ width: 360 }}
          placeholder="选择赛事"
          aria-label="选择赛事"
          showSearch
          optionFilterProp="label"
          loading={contests.isLoading}
          value={contestId}
          onChange={setContestId}
          options={(contests.data ?? []).map((c) => ({
            value: c.id,
            label: `${c.name}（${LEVEL_NAMES[c.level] ?? c.level}，${c.works} 件）`,
          }))}
          data-testid="dup-report-contest"
        />
        <InputNumber
          style={{ width: 250 }}
          min={5}
          max={100}
          addonBefore="阈值"
          addonAfter="%"
          placeholder="默认：疑似重复"
          aria-label="相似度阈值（%）"
          value={threshold}
          onChange={(v) => setThreshold(v)}
          data-testid="dup-report-threshold"
        />
        <Checkbox checked={outside} onChange={(e) => setOutside(e.target.checked)}>
          包括赛事以外的作品（往年、其他赛事）
        </Checkbox>
        <Button
          type="primary"
          icon={<PlayCircleOutlined />}
          disabled={!contestId || job?.status === "running"}
          onClick={() => void start()}
          data-testid="dup-report-start"
        >
          生成报告
        </Button>
      </Space>
      {error && <Alert type="error" showIcon message={error} />}
      {(job?.status === "running" || (!job && jobId)) && (
        <Progress
          aria-label="查重进度"
          percent={job ? percentOf(job) : 0}
          status="active"
          format={() => (job ? `${job.processed}/${job.total || "…"} 件` : "准备中…")}
          data-testid={job ? "dup-report-progress" : undefined}
        />
      )}
      {job?.status === "failed" && <Alert type="error" showIcon message={job.message ?? "生成失败"} />}
      {job?.status === "cancelled" && <Alert type="warning" showIcon message="已取消" />}
      {job?.status === "done" && (
        <Space direction="vertical" size={12} style={{ width: "100%" }} data-testid="dup-report-done">
          <Alert
            type={result && result.pairs ? "warning" : "success"}
            showIcon
            message={job.message}
            description={
              result
                ? `阈值 ${pct(result.threshold, 0)}；${result.checked} 件作品参与比较${result.notChecked ? `，${result.notChecked} 件因文字太少或读取失败未能查重` : ""}`
                : undefined
            }
            action={
              job.downloadUrl ? (
                <Button type="primary" icon={<DownloadOutlined />} href={job.downloadUrl} data-testid="dup-report-download">
                  下载 .xlsx
                </Button>
              ) : undefined
            }
          />
          {result && result.clusters.length > 0 && (
            <List
              data-testid="dup-clusters"
              dataSource={result.clusters}
              renderItem={(c) => (
                <Card
                  size="small"
                  style={{ marginBottom: 12 }}
                  title={
                    <Space>
                      第 {c.index} 组<Tag>{c.works.length} 件作品</Tag>
                      <LevelTag level={c.pairs[0]?.level ?? "none"} similarity={c.maxSimilarity} />
                    </Space>
                  }
                  data-testid={`dup-cluster-${c.index}`}
                >
                  <Space direction="vertical" style={{ width: "100%" }}>
                    <Space wrap size={[24, 8]}>
                      {c.works.map((w) => (
                        <WorkRefText key={w.workId} w={w} showContest />
                      ))}
                    </Space>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      作品对{c.pairs.length > PAIRS_SHOWN ? `（相似度最高的 ${PAIRS_SHOWN} 对，全部见 .xlsx）` : ""}：
                      {c.pairs.slice(0, PAIRS_SHOWN).map((p, i) => {
                        const a = c.works.find((w) => w.workId === p.a);
                        const linkable = a?.inScope;
                        return (
                          <span key={i} style={{ marginInlineEnd: 12 }}>
                            {linkable ? (
                              <Link to={comparePath(p.a, p.b)}>
                                {p.a} ↔ {p.b}
                              </Link>
                            ) : (
                              `${p.a} ↔ ${p.b}`
                            )}{" "}
                            {pct(p.similarity)}
                          </span>
                        );
                      })}
                    </Typography.Text>
                  </Space>
                </Card>
              )}
            />
          )}
          {result && result.moreClusters > 0 && (
            <Typography.Text type="secondary">另有 {result.moreClusters} 组未在此列出，见 .xlsx 文件。</Typography.Text>
          )}
        </Space>
      )}
    </Space>
  );
}
