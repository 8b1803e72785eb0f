/**
 * /admin/ElasticSearch (root; menu 查重引擎; the seed's path is kept, there is no
 * Elasticsearch): the duplicate-check index — how many works are indexed, waiting or failed
 * (with the reasons), rebuilding it as a job with a progress bar, the thresholds (疑似重复 /
 * 高度疑似重复) and the common-shingle settings, the ignored (very common) shingles and the
 * figures of the last benchmark run.
 */
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  Descriptions,
  Empty,
  Form,
  InputNumber,
  Progress,
  Row,
  Space,
  Statistic,
  Table,
  Tabs,
  Tag,
  Typography,
} from "antd";
import { ReloadOutlined, SaveOutlined, SyncOutlined } from "@ant-design/icons";
import type { DupEntryRow, DupSettingsBody } from "../../shared/dupcheck/api";
import type { DupEntryStatus } from "../../shared/dupcheck/schema";
import { percentOf, useJob } from "../crud/use-job";
import { fmtTime } from "../format";
import type { PageProps } from "../routing/model";
import { dupKeys, reindex, saveSettings, startRebuild, useAdminStats, useEntries, useIgnored } from "./api";
import { pct } from "./parts";

function RebuildCard({ running }: { running: { jobId: string; processed: number; total: number; mine: boolean } | null }) {
  const qc = useQueryClient();
  const [reextract, setReextract] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A rebuild this user started earlier (page reloaded) is followed again.
  useEffect(() => {
    if (!jobId && running?.mine) setJobId(running.jobId);
  }, [jobId, running]);
  const job = useJob(jobId);
  useEffect(() => {
    if (job && job.status !== "running") void qc.invalidateQueries({ queryKey: dupKeys.all });
  }, [job, qc]);
  const start = async () => {
    setError(null);
    const r = await startRebuild(reextract);
    if (r.error !== 0 || !r.data) setError(r.info || "重建启动失败");
    else setJobId(r.data.jobId);
  };
  const busy = job?.status === "running" || (!!running && !running.mine);
  return (
    <Card size="small" title="重建索引" data-testid="dup-rebuild">
      <Space direction="vertical" style={{ width: "100%" }}>
        <Typography.Text type="secondary">
          重新计算常见片段和全部作品的签名；勾选后还会重新读取每件作品的全部文档（较慢）。重建期间查重照常可用。
        </Typography.Text>
        <Space wrap>
          <Checkbox checked={reextract} onChange={(e) => setReextract(e.target.checked)} disabled={busy}>
            重新读取全部文档
          </Checkbox>
          <Button
            type="primary"
            icon={<SyncOutlined />}
            onClick={() => void start()}
            disabled={busy}
            data-testid="dup-rebuild-start"
          >
            开始重建
          </Button>
        </Space>
        {error && <Alert type="error" showIcon message={error} />}
        {job?.status === "running" && (
          <Progress aria-label="重建进度" percent={percentOf(job)} status="active" data-testid="dup-rebuild-progress" />
        )}
        {!job && running && !running.mine && (
          <Progress
            aria-label="重建进度"
            percent={running.total ? Math.round((running.processed / running.total) * 100) : 0}
            status="active"
            format={(p) => `其他管理员正在重建 ${p}%`}
          />
        )}
        {job?.status === "done" && <Alert type="success" showIcon message={job.message} data-testid="dup-rebuild-done" />}
        {job?.status === "failed" && <Alert type="error" showIcon message={job.message ?? "重建失败"} />}
      </Space>
    </Card>
  );
}

function SettingsCard({
  value,
}: {
  value: { suspect: number; likely: number; ignoreShare: number; ignoreMinWorks: number; minShingles: number };
}) {
  const qc = useQueryClient();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    form.setFieldsValue({
      suspect: Math.round(value.suspect * 100),
      likely: Math.round(value.likely * 100),
      ignoreShare: +(value.ignoreShare * 100).toFixed(2),
      ignoreMinWorks: value.ignoreMinWorks,
      minShingles: value.minShingles,
    });
  }, [form, value]);
  const save = async (v: {
    suspect: number;
    likely: number;
    ignoreShare: number;
    ignoreMinWorks: number;
    minShingles: number;
  }) => {
    setSaving(true);
    const body: DupSettingsBody = {
      suspect: v.suspect / 100,
      likely: v.likely / 100,
      ignoreShare: v.ignoreShare / 100,
      ignoreMinWorks: v.ignoreMinWorks,
      minShingles: v.minShingles,
    };
    const r = await saveSettings(body);
    setSaving(false);
    if (r.error === 0) void qc.invalidateQueries({ queryKey: dupKeys.all });
  };
  return (
    <Card size="small" title="阈值与设置" data-testid="dup-settings">
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)} requiredMark={false}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="suspect" label="疑似重复：相似度 ≥" rules={[{ required: true, message: "请填写" }]} extra="立即生效">
              <InputNumber min={5} max={100} addonAfter="%" style={{ width: "100%" }} data-testid="dup-suspect" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="likely"
              label="高度疑似重复：相似度 ≥"
              dependencies={["suspect"]}
              rules={[
                { required: true, message: "请填写" },
                ({ getFieldValue }) => ({
                  validator: (_, v) =>
                    v === undefined || v >= getFieldValue("suspect")
                      ? Promise.resolve()
                      : Promise.reject(new Error("不能低于疑似重复的阈值")),
                }),
              ]}
              extra="立即生效"
            >
              <InputNumber min={5} max={100} addonAfter="%" style={{ width: "100%" }} data-testid="dup-likely" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="ignoreShare" label="常见片段：出现在 ≥ 的作品中" extra="下次重建生效">
              <InputNumber min={0.1} max={100} step={0.5} addonAfter="%" style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="ignoreMinWorks" label="且至少出现在（件）" extra="下次重建生效">
              <InputNumber min={2} max={1_000_000} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="minShingles" label="少于多少个片段视为文字太少" extra="下次重建生效">
              <InputNumber min={1} max={100_000} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
        </Row>
        <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving} data-testid="dup-settings-save">
          保存
        </Button>
      </Form>
    </Card>
  );
}

const ENTRY_TABS: { key: string; label: string; status?: DupEntryStatus; withReasons?: boolean }[] = [
  { key: "failed", label: "索引失败", status: "failed" },
  { key: "pending", label: "等待索引", status: "pending" },
  { key: "skipped", label: "有未查重的文档", withReasons: true },
  { key: "all", label: "全部" },
];

function EntriesCard() {
  const [tab, setTab] = useState("failed");
  const [current, setCurrent] = useState(1);
  const t = ENTRY_TABS.find((x) => x.key === tab)!;
  const q = useEntries({ status: t.status, withReasons: t.withReasons, current, pageSize: 10 });
  return (
    <Card size="small" title="索引条目" data-testid="dup-entries">
      <Tabs
        activeKey={tab}
        onChange={(k) => (setTab(k), setCurrent(1))}
        items={ENTRY_TABS.map((x) => ({ key: x.key, label: x.label }))}
      />
      <Table<DupEntryRow>
        size="small"
        rowKey="workId"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={{ current, pageSize: 10, total: q.data?.total ?? 0, onChange: setCurrent, showSizeChanger: false }}
        locale={{ emptyText: "没有记录" }}
        columns={[
          {
            title: "作品",
            key: "w",
            render: (_, e) => (
              <Space direction="vertical" size={0}>
                <Link to={`/dup-check?workId=${e.workId}`}>{e.workId}</Link>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {e.name ?? "（已删除）"}
                </Typography.Text>
              </Space>
            ),
          },
          { title: "年度", dataIndex: "year", width: 70 },
          {
            title: "状态",
            key: "s",
            width: 110,
            render: (_, e) => (
              <Space size={2} wrap>
                <Tag color={e.status === "indexed" ? "green" : e.status === "failed" ? "red" : "processing"}>{e.statusName}</Tag>
                {e.tooShort && <Tag color="orange">文字太少</Tag>}
              </Space>
            ),
          },
          { title: "片段数", dataIndex: "shingles", width: 80 },
          {
            title: "原因",
            key: "r",
            render: (_, e) =>
              e.reasons.length
                ? e.reasons.map((r, i) => (
                    <div key={i}>
                      {r.filename ? `「${r.filename}」：` : ""}
                      {r.message}
                    </div>
                  ))
                : "—",
          },
          { title: "更新时间", dataIndex: "updatedAt", width: 150, render: (v: string) => fmtTime(v) },
          {
            title: "操作",
            key: "op",
            width: 100,
            render: (_, e) => (
              <Button size="small" type="link" icon={<ReloadOutlined />} onClick={() => void reindex(e.workId)}>
                重新索引
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}

function IgnoredCard({ total }: { total: number }) {
  const [current, setCurrent] = useState(1);
  const q = useIgnored(current, 20);
  return (
    <Card size="small" title={`被忽略的常见片段（${total}）`} data-testid="dup-ignored">
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        出现在大量作品中的三字片段（赛事规则的模板语句、类别说明等）不计入相似度，也不用于寻找候选作品。
      </Typography.Paragraph>
      <Table
        size="small"
        rowKey={(r) => r.sample + r.works}
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={{ current, pageSize: 20, total: q.data?.total ?? 0, onChange: setCurrent, showSizeChanger: false }}
        locale={{ emptyText: "暂无（作品较少时不忽略任何片段）" }}
        columns={[
          { title: "片段", dataIndex: "sample", render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          { title: "出现的作品数", dataIndex: "works", width: 130 },
          { title: "占比", dataIndex: "share", width: 100, render: (v: number) => pct(v) },
        ]}
      />
    </Card>
  );
}

export default function DupAdmin({ route }: PageProps) {
  const [poll, setPoll] = useState(false);
  const q = useAdminStats(poll);
  useEffect(() => setPoll(!!q.data?.rebuild || (q.data?.stats.pending ?? 0) > 0), [q.data]);
  if (q.isError)
    return (
      <Card title={route.label}>
        <Alert type="error" showIcon message={q.error.message} />
      </Card>
    );
  const d = q.data;
  const s = d?.stats;
  const b = d?.benchmark;
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="dup-admin">
      <Card title={route.label} loading={q.isLoading}>
        {s && (
          <Space direction="vertical" size={16} style={{ width: "100%" }}>
            <Row gutter={[16, 16]} data-testid="dup-stats">
              <Col xs={12} md={6} lg={3}>
                <Statistic title="应建索引的作品" value={s.eligible} />
              </Col>
              <Col xs={12} md={6} lg={3}>
                <Statistic title="已索引" value={s.indexed} valueStyle={{ color: "#389e0d" }} data-testid="dup-stat-indexed" />
              </Col>
              <Col xs={12} md={6} lg={3}>
                <Statistic title="等待索引" value={s.pending} data-testid="dup-stat-pending" />
              </Col>
              <Col xs={12} md={6} lg={3}>
                <Statistic
                  title="索引失败"
                  value={s.failed}
                  valueStyle={s.failed ? { color: "#cf1322" } : undefined}
                  data-testid="dup-stat-failed"
                />
              </Col>
              <Col xs={12} md={6} lg={3}>
                <Statistic title="尚未索引" value={s.missing} />
              </Col>
              <Col xs={12} md={6} lg={3}>
                <Statistic title="文字太少" value={s.tooShort} />
              </Col>
              <Col xs={12} md={6} lg={3}>
                <Statistic title="有未查重的文档" value={s.withSkipped} />
              </Col>
              <Col xs={12} md={6} lg={3}>
                <Statistic title="忽略的常见片段" value={s.ignoredShingles} />
              </Col>
            </Row>
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 }}
              bordered
              labelStyle={{ width: 110 }}
            >
              <Descriptions.Item label="方法">
                字符三元组 · MinHash {s.params.hashes} 个哈希 · LSH {s.params.bands} 段 × {s.params.rows} 行 ·
                段落锚点（找出抄录长文几段的作品）· 候选作品逐一精确计算
              </Descriptions.Item>
              <Descriptions.Item label="阈值">
                疑似重复 ≥ {pct(s.settings.suspect, 0)}，高度疑似重复 ≥ {pct(s.settings.likely, 0)}
              </Descriptions.Item>
              <Descriptions.Item label="上次重建">
                {s.lastRebuild
                  ? `${fmtTime(s.lastRebuild.startedAt)}，${s.lastRebuild.works} 件作品${s.lastRebuild.failed ? `，${s.lastRebuild.failed} 件失败` : ""}${s.lastRebuild.seconds !== null ? `，用时 ${s.lastRebuild.seconds} 秒` : ""}${s.lastRebuild.error ? `（${s.lastRebuild.error}）` : ""}`
                  : "尚未重建"}
              </Descriptions.Item>
              <Descriptions.Item label="常见片段统计">
                {s.ignoredComputedAt ? `${fmtTime(s.ignoredComputedAt)}，按 ${s.ignoredComputedFrom} 件作品统计` : "尚未统计"}
              </Descriptions.Item>
            </Descriptions>
          </Space>
        )}
      </Card>
      <Row gutter={16}>
        <Col xs={24} lg={10}>
          <RebuildCard running={d?.rebuild ?? null} />
        </Col>
        <Col xs={24} lg={14}>
          {s && <SettingsCard value={s.settings} />}
        </Col>
      </Row>
      <Card size="small" title="上次基准测试" data-testid="dup-benchmark">
        {b ? (
          <Descriptions size="small" column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label="作品数">
              {b.works.toLocaleString()}
              {b.dialect ? `（${b.dialect}）` : ""}
            </Descriptions.Item>
            <Descriptions.Item label="建索引">{b.buildSeconds} 秒</Descriptions.Item>
            <Descriptions.Item label="新增一件">{b.addMs} ms</Descriptions.Item>
            <Descriptions.Item label="查重 p50 / p99">
              {b.checkP50Ms} / {b.checkP99Ms} ms
            </Descriptions.Item>
            <Descriptions.Item label="候选召回率（J ≥ 0.5）">{pct(b.recallAt05, 2)}</Descriptions.Item>
            <Descriptions.Item label="轻度修改的复制品检出">{pct(b.lightEditsFound)}</Descriptions.Item>
            <Descriptions.Item label="10% 改写检出（疑似阈值）">{pct(b.rewritesFound)}</Descriptions.Item>
            {b.rewrites20Found !== undefined && (
              <Descriptions.Item label="20% / 30% 改写检出">
                {pct(b.rewrites20Found)} / {pct(b.rewrites30Found ?? 0)}
              </Descriptions.Item>
            )}
            {b.pairAgreement !== undefined && (
              <Descriptions.Item label="查重与比对一致">{pct(b.pairAgreement, 2)}</Descriptions.Item>
            )}
            <Descriptions.Item label="同题原创误报">{pct(b.originalsFlagged)}</Descriptions.Item>
            {b.rebuildSeconds !== undefined && <Descriptions.Item label="全量重建">{b.rebuildSeconds} 秒</Descriptions.Item>}
            {b.date && (
              <Descriptions.Item label="运行时间">
                <span data-testid="dup-benchmark-date">{fmtTime(b.date)}</span>
              </Descriptions.Item>
            )}
            {b.machine && (
              <Descriptions.Item label="机器" span={2}>
                {b.machine}
              </Descriptions.Item>
            )}
          </Descriptions>
        ) : (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description="尚未记录（npm run bench:dupcheck -- --record <DATA_DIR>）"
            data-testid="dup-benchmark-none"
          />
        )}
      </Card>
      <EntriesCard />
      {s && <IgnoredCard total={s.ignoredShingles} />}
    </Space>
  );
}
