/**
 * /dup-check (root, contest admin, judge): check a work by its id, a pasted text or an
 * uploaded .docx/.pdf against every stored work; the results list (work, year, contest,
 * similarity, containment both ways) with filters, and the side by side view — for works
 * its own page (/dup-check/compare/:a/:b), for a text or a document a drawer. Root and
 * contest admins also run the batch report of a contest (a job with a progress bar; the
 * clusters on screen, every pair in the .xlsx). What a user may see is decided by the server.
 */
import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { useCan } from "@refinedev/core";
import { Alert, Button, Card, Descriptions, Drawer, Input, Result, Skeleton, Space, Tabs, Typography, Upload } from "antd";
import { FileSearchOutlined, InboxOutlined, SearchOutlined } from "@ant-design/icons";
import type { UploadFile } from "antd";
import {
  comparePath,
  MAX_DOCUMENT_MB,
  MAX_TEXT_CHARS,
  type DupFilters,
  type DupMatchView,
  type DupPairView,
  type DupTextReport,
} from "../../shared/dupcheck/api";
import type { PageProps } from "../routing/model";
import { checkDocument, checkText, pairDocument, pairText, useWorkCheck } from "./api";
import { contestsOf, MatchFilters, MatchTable } from "./MatchTable";
import { IndexNotes, IndexStateTag, pct } from "./parts";
import { PairView } from "./PairView";
import { ReportPanel } from "./ReportPanel";

const isWorkId = (s: string) => /^\d{10}$/.test(s.trim());

function Summary({
  r,
}: {
  r: {
    candidates: number;
    matches: DupMatchView[];
    more: number;
    outside: number;
    thresholds: { suspect: number; likely: number };
  };
}) {
  const flagged = r.matches.filter((m) => m.level !== "none").length;
  return (
    <Typography.Paragraph type="secondary" style={{ margin: 0 }} data-testid="dup-summary">
      比较了 {r.candidates} 件候选作品，列出 {r.matches.length} 件相似作品{r.more ? `（另有 ${r.more} 件未列出）` : ""}，其中{" "}
      {flagged} 件达到疑似重复（≥ {pct(r.thresholds.suspect, 0)}）
      {r.outside ? `；${r.outside} 件不在您的查重范围内，只显示编号和年度` : ""}。
    </Typography.Paragraph>
  );
}

function WorkTab() {
  const [sp, setSp] = useSearchParams();
  const navigate = useNavigate();
  const workId = isWorkId(sp.get("workId") ?? "") ? Number(sp.get("workId")) : 0;
  const [input, setInput] = useState(workId ? String(workId) : "");
  const [filters, setFilters] = useState<DupFilters>({});
  const q = useWorkCheck(workId, filters);
  const go = () => {
    if (!isWorkId(input)) return;
    setSp((prev) => {
      const next = new URLSearchParams(prev);
      next.set("workId", input.trim());
      next.set("tab", "work");
      return next;
    });
  };
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Space.Compact style={{ maxWidth: 420 }}>
        <Input
          placeholder="10 位作品编号"
          aria-label="10 位作品编号"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onPressEnter={go}
          status={input && !isWorkId(input) ? "error" : undefined}
          data-testid="dup-work-id"
        />
        <Button type="primary" icon={<SearchOutlined />} onClick={go} disabled={!isWorkId(input)} data-testid="dup-work-check">
          查重
        </Button>
      </Space.Compact>
      {!workId ? (
        <Typography.Text type="secondary">输入作品编号，与同年度（全部赛事、全部级别）及以前年度的全部作品比较。</Typography.Text>
      ) : q.isLoading ? (
        <Skeleton active />
      ) : q.isError || !q.data ? (
        <Result status="404" title={q.error?.message ?? "作品不存在或不在您的查重范围内"} data-testid="dup-work-error" />
      ) : (
        <Space direction="vertical" size={12} style={{ width: "100%" }} data-testid="dup-work-result">
          <Descriptions size="small" column={{ xs: 1, md: 4 }} bordered>
            <Descriptions.Item label="作品">
              《{q.data.work.name}》{q.data.work.workId}
            </Descriptions.Item>
            <Descriptions.Item label="年度">{q.data.work.year}</Descriptions.Item>
            <Descriptions.Item label="赛事">{q.data.work.contestName}</Descriptions.Item>
            <Descriptions.Item label="索引状态">
              <IndexStateTag index={q.data.index} />
            </Descriptions.Item>
          </Descriptions>
          <IndexNotes index={q.data.index} />
          <MatchFilters value={filters} onChange={setFilters} contests={contestsOf(q.data.matches)} />
          {!q.data.index.tooShort && <Summary r={q.data} />}
          {!q.data.index.tooShort && (
            <MatchTable matches={q.data.matches} onCompare={(m) => navigate(comparePath(workId, m.workId))} />
          )}
        </Space>
      )}
    </Space>
  );
}

/** A text or document result, with its side by side drawer. */
function TextResult({
  result,
  compare,
}: {
  result: DupTextReport;
  compare: (m: DupMatchView) => Promise<{ pair?: DupPairView; error?: string }>;
}) {
  const [pair, setPair] = useState<{ m: DupMatchView; view?: DupPairView; error?: string } | null>(null);
  const open = async (m: DupMatchView) => {
    setPair({ m });
    const r = await compare(m);
    setPair({ m, view: r.pair, error: r.error });
  };
  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }} data-testid="dup-text-result">
      {result.document && (
        <Typography.Text type="secondary">
          文档「{result.document.filename}」读出 {result.document.chars} 字
          {result.document.reason ? `；${result.document.reason.message}` : ""}
        </Typography.Text>
      )}
      <IndexNotes index={result.index} />
      {!result.index.tooShort && <Summary r={result} />}
      {!result.index.tooShort && <MatchTable matches={result.matches} onCompare={open} />}
      <Drawer
        open={!!pair}
        onClose={() => setPair(null)}
        width="92%"
        title={pair ? `并排对比：${pair.m.inScope ? `《${pair.m.name}》` : `范围外作品 ${pair.m.workId}`}` : ""}
        destroyOnHidden
      >
        {pair?.error ? (
          <Alert type="error" showIcon message={pair.error} />
        ) : pair?.view ? (
          <PairView pair={pair.view} />
        ) : (
          <Skeleton active />
        )}
      </Drawer>
    </Space>
  );
}

function PasteTab() {
  const [text, setText] = useState("");
  const [filters, setFilters] = useState<DupFilters>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<DupTextReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (f = filters) => {
    setBusy(true);
    setError(null);
    const r = await checkText(text, f);
    setBusy(false);
    if (r.error === 0 && r.data) setResult(r.data);
    else {
      setResult(null);
      setError(r.info || "查重失败");
    }
  };
  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }}>
      <Input.TextArea
        rows={8}
        maxLength={MAX_TEXT_CHARS}
        showCount
        placeholder="粘贴作品简介、设计思路或文档中的段落（建议 200 字以上），与全部年度的作品比较"
        aria-label="要查重的文本段落"
        value={text}
        onChange={(e) => setText(e.target.value)}
        data-testid="dup-text-input"
      />
      <Space wrap>
        <Button
          type="primary"
          icon={<SearchOutlined />}
          loading={busy}
          onClick={() => void run()}
          disabled={!text.trim()}
          data-testid="dup-text-check"
        >
          查重
        </Button>
        {result && (
          <MatchFilters
            value={filters}
            showYears={false}
            onChange={(f) => (setFilters(f), void run(f))}
            contests={contestsOf(result.matches)}
          />
        )}
      </Space>
      {error && <Alert type="error" showIcon message={error} data-testid="dup-text-error" />}
      {result && (
        <TextResult
          result={result}
          compare={async (m) => {
            const r = await pairText(text, m.workId);
            return r.error === 0 ? { pair: r.data } : { error: r.info };
          }}
        />
      )}
    </Space>
  );
}

function DocumentTab() {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<DupTextReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    const r = await checkDocument(file, {});
    setBusy(false);
    if (r.error === 0 && r.data) setResult(r.data);
    else {
      setResult(null);
      setError(r.info || "查重失败");
    }
  };
  const list: UploadFile[] = file ? [{ uid: "doc", name: file.name, status: "done" }] : [];
  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }}>
      <Upload.Dragger
        accept=".docx,.pdf"
        maxCount={1}
        fileList={list}
        beforeUpload={(f) => {
          setFile(f);
          setResult(null);
          return false;
        }}
        onRemove={() => (setFile(null), setResult(null))}
        data-testid="dup-doc-upload"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">点击或拖入 .docx / .pdf 文档（不超过 {MAX_DOCUMENT_MB} MB）</p>
        <p className="ant-upload-hint">读出文档中的文字，与全部年度的作品比较；加密、损坏或过大的文档会说明原因</p>
      </Upload.Dragger>
      <Button
        type="primary"
        icon={<FileSearchOutlined />}
        loading={busy}
        disabled={!file}
        onClick={() => void run()}
        data-testid="dup-doc-check"
      >
        查重
      </Button>
      {error && <Alert type="error" showIcon message={error} data-testid="dup-doc-error" />}
      {result && file && (
        <TextResult
          result={result}
          compare={async (m) => {
            const r = await pairDocument(file, m.workId);
            return r.error === 0 ? { pair: r.data } : { error: r.info };
          }}
        />
      )}
    </Space>
  );
}

export default function DupCheck({ route }: PageProps) {
  const [sp, setSp] = useSearchParams();
  const canReport = !!useCan({ resource: "api.dupcheckReport", action: "create" }).data?.can;
  const tab = sp.get("tab") ?? "work";
  const items = [
    { key: "work", label: "按作品编号", children: <WorkTab /> },
    { key: "text", label: "粘贴文本", children: <PasteTab /> },
    { key: "document", label: "上传文档", children: <DocumentTab /> },
    ...(canReport ? [{ key: "report", label: "赛事查重报告", children: <ReportPanel /> }] : []),
  ];
  return (
    <Card title={route.label} data-testid="dup-check">
      <Tabs
        activeKey={items.some((i) => i.key === tab) ? tab : "work"}
        onChange={(k) =>
          setSp((prev) => {
            const next = new URLSearchParams(prev);
            next.set("tab", k);
            return next;
          })
        }
        items={items}
        destroyOnHidden={false}
      />
    </Card>
  );
}
