/**
 * The side by side view of a duplicate check: the figures (similarity, Jaccard, containment
 * both ways), both texts with their sections and the shared passages highlighted, and the
 * list of passages with their positions in both texts (1-based character positions of the
 * original text); choosing a passage scrolls both texts to it. A side outside the caller's
 * scope is redacted by the server: only its shared passages (with positions) are shown.
 * Passages made of template sentences (very common shingles) are shown in grey.
 */
import { useMemo, useRef, type ReactNode } from "react";
import { Alert, Card, Col, Descriptions, Empty, Row, Space, Table, Tag, Typography } from "antd";
import type { DupPairView, DupSideView } from "../../shared/dupcheck/api";
import type { DupPassage } from "../../shared/dupcheck/schema";
import { LevelTag, pct, SkippedParts } from "./parts";

type Range = { start: number; end: number };

const MARK = { background: "#ffe58f", padding: "0 1px", borderRadius: 2, scrollMarginTop: 80 };
const MARK_COMMON = { ...MARK, background: "#e8e8e8" };

const position = (r: Range) => `第 ${r.start + 1}–${r.end} 字`;

/** Which merged range of `ranges` holds position `at`, or -1. */
const rangeAt = (ranges: Range[], at: number) => ranges.findIndex((r) => r.start <= at && at < r.end);

/** Ranges covered only by template passages. */
function commonRanges(ranges: Range[], passages: DupPassage[], side: "a" | "b"): Set<number> {
  const out = new Set<number>();
  ranges.forEach((r, i) => {
    const inside = passages.filter((p) => {
      const s = side === "a" ? p.aStart : p.bStart;
      return r.start <= s && s < r.end;
    });
    if (inside.length && inside.every((p) => p.common)) out.add(i);
  });
  return out;
}

/** text[from, to) with the parts inside `ranges` marked; marks carry their range's index. */
function marked(text: string, from: number, to: number, ranges: Range[], common: Set<number>, side: "a" | "b"): ReactNode[] {
  const out: ReactNode[] = [];
  let at = from;
  ranges.forEach((r, i) => {
    const s = Math.max(r.start, from);
    const e = Math.min(r.end, to);
    if (e <= s) return;
    if (s > at) out.push(text.slice(at, s));
    out.push(
      <mark
        key={`${i}-${s}`}
        style={common.has(i) ? MARK_COMMON : MARK}
        data-testid={`dup-highlight-${side}`}
        data-range={i}
        title={position(r)}
      >
        {text.slice(s, e)}
      </mark>,
    );
    at = e;
  });
  if (at < to) out.push(text.slice(at, to));
  return out;
}

function SideText({
  side,
  which,
  passages,
  boxRef,
}: {
  side: DupSideView;
  which: "a" | "b";
  passages: DupPassage[];
  boxRef: React.RefObject<HTMLDivElement | null>;
}) {
  const common = useMemo(() => commonRanges(side.ranges, passages, which), [side.ranges, passages, which]);
  const head = side.redacted
    ? `范围外作品 ${side.workId}（${side.year} 年）`
    : side.workId
      ? `《${side.title ?? ""}》`
      : (side.title ?? "粘贴的文本");
  const facts = side.redacted
    ? `该作品不在您的查重范围内：只显示与另一侧相同的片段及其位置（全文共 ${side.length} 字）`
    : `${side.workId ? `${side.workId} · ${side.year} 年${side.contestName ? ` · ${side.contestName}` : ""} · ` : ""}共 ${side.length} 字，相同片段 ${side.ranges.length} 处`;
  const sections = side.sections.length ? side.sections : [{ key: "text", label: "", start: 0, end: side.text.length }];
  return (
    <Card size="small" title={head} data-testid={`dup-side-${which}`} data-redacted={side.redacted ? "yes" : "no"}>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
        {facts}
      </Typography.Paragraph>
      {side.skipped.length > 0 && (
        <div style={{ marginBottom: 8 }}>
          <SkippedParts reasons={side.skipped} />
        </div>
      )}
      <div ref={boxRef} style={{ maxHeight: "70vh", overflow: "auto", paddingRight: 4 }} data-testid={`dup-text-${which}`}>
        {side.redacted ? (
          side.snippets.length ? (
            side.snippets.map((s, i) => (
              <div key={i} style={{ marginBottom: 12 }}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {position(s)}
                </Typography.Text>
                <div style={{ whiteSpace: "pre-wrap", lineHeight: 1.8 }}>
                  <mark
                    style={common.has(i) ? MARK_COMMON : MARK}
                    data-testid={`dup-highlight-${which}`}
                    data-range={i}
                    title={position(s)}
                  >
                    {s.text}
                  </mark>
                </div>
                {i < side.snippets.length - 1 && <Typography.Text type="secondary">……</Typography.Text>}
              </div>
            ))
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有相同的片段" />
          )
        ) : (
          sections.map((sec) => (
            <div key={`${sec.key}-${sec.start}`} style={{ marginBottom: 12 }}>
              {sec.label && (
                <Typography.Text type="secondary" strong style={{ fontSize: 12 }}>
                  {sec.label}
                </Typography.Text>
              )}
              <div style={{ whiteSpace: "pre-wrap", lineHeight: 1.8 }}>
                {marked(side.text, sec.start, sec.end, side.ranges, common, which)}
              </div>
            </div>
          ))
        )}
      </div>
    </Card>
  );
}

export function PairView({ pair }: { pair: DupPairView }) {
  const boxA = useRef<HTMLDivElement>(null);
  const boxB = useRef<HTMLDivElement>(null);
  const goTo = (p: DupPassage) => {
    for (const [box, side, at] of [
      [boxA, pair.a, p.aStart],
      [boxB, pair.b, p.bStart],
    ] as const) {
      const i = rangeAt(side.ranges, at);
      const el = box.current?.querySelector(`mark[data-range="${i}"]`);
      if (el) (el as HTMLElement).scrollIntoView({ block: "center", behavior: "smooth" });
    }
  };
  const excerpt = (p: DupPassage) => {
    const src = pair.a.redacted ? "" : pair.a.text.slice(p.aStart, p.aEnd);
    return src.length > 60 ? `${src.slice(0, 60)}…` : src;
  };
  const counted = pair.passages.filter((p) => !p.common);
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="dup-pair">
      {pair.tooShort && <Alert type="warning" showIcon message="至少一方的文字太少，无法有意义地比较；下列数字没有意义" />}
      <Card size="small">
        <Descriptions size="small" column={{ xs: 1, md: 3, xl: 5 }} data-testid="dup-figures">
          <Descriptions.Item label="相似度">
            <LevelTag level={pair.level} similarity={pair.similarity} />
          </Descriptions.Item>
          <Descriptions.Item label="Jaccard">{pct(pair.jaccard)}</Descriptions.Item>
          <Descriptions.Item label="左侧在右侧中的占比">
            <span data-testid="dup-containment-ab">{pct(pair.containmentAB)}</span>
          </Descriptions.Item>
          <Descriptions.Item label="右侧在左侧中的占比">
            <span data-testid="dup-containment-ba">{pct(pair.containmentBA)}</span>
          </Descriptions.Item>
          <Descriptions.Item label="相同片段">
            {counted.length} 处
            {counted.some((p) => p.differs) ? `（其中 ${counted.filter((p) => p.differs).length} 处有少量差异）` : ""}
            {pair.passages.length > counted.length ? `（另有 ${pair.passages.length - counted.length} 处为常见模板语句）` : ""}
          </Descriptions.Item>
        </Descriptions>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          相似度取 Jaccard 与两个方向包含率中的最大值（按规范化后的三字片段精确计算，常见模板语句不计）；疑似重复 ≥{" "}
          {pct(pair.thresholds.suspect, 0)}，高度疑似重复 ≥ {pct(pair.thresholds.likely, 0)}。黄色为相同片段，灰色为常见模板语句。
        </Typography.Text>
      </Card>
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <SideText side={pair.a} which="a" passages={pair.passages} boxRef={boxA} />
        </Col>
        <Col xs={24} lg={12}>
          <SideText side={pair.b} which="b" passages={pair.passages} boxRef={boxB} />
        </Col>
      </Row>
      <Card size="small" title={`相同片段（${pair.passages.length}）`}>
        <Table<DupPassage & { i: number }>
          size="small"
          rowKey="i"
          data-testid="dup-passages"
          dataSource={pair.passages.map((p, i) => ({ ...p, i }))}
          pagination={pair.passages.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          onRow={(p) => ({ onClick: () => goTo(p), style: { cursor: "pointer" } })}
          columns={[
            { title: "#", dataIndex: "i", width: 50, render: (i: number) => i + 1 },
            { title: "左侧位置", key: "a", width: 150, render: (_, p) => position({ start: p.aStart, end: p.aEnd }) },
            { title: "右侧位置", key: "b", width: 150, render: (_, p) => position({ start: p.bStart, end: p.bEnd }) },
            { title: "长度", dataIndex: "length", width: 80, render: (n: number) => `${n} 字` },
            {
              title: "片段",
              key: "t",
              render: (_, p) => (
                <>
                  {p.common && <Tag>常见模板语句</Tag>}
                  {p.differs ? (
                    <Tag color="orange" data-testid="dup-passage-kind">
                      相近片段（有少量差异）
                    </Tag>
                  ) : (
                    <Tag color="gold" data-testid="dup-passage-kind">
                      相同片段
                    </Tag>
                  )}
                  {excerpt(p)}
                </>
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
