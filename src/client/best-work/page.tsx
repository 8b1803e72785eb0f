/**
 * /admin/BestWork (root): the 优秀作品 of the public main page. Above, the chosen works in their
 * gallery order (move up/down), each with its cover (PNG/JPEG upload), short text, video address
 * and published switch; below, the published awards to choose from (by contest, category,
 * award, keyword). Only published best works show on /mainpage/best.
 */
import { useEffect, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Empty, Image, Input, Popconfirm, Select, Space, Switch, Table, Tag, Typography, Upload } from "antd";
import { ArrowDownOutlined, ArrowUpOutlined, PictureOutlined, PlusOutlined } from "@ant-design/icons";
import type { BestWorkAdmin, Candidate, PageOf, ResultOptions } from "../../shared/mainpage/schema";
import type { PageProps } from "../routing/model";
import { del, fetchData, post, put } from "../request";

const ADM = "/Backend/Admin/best-work";
/** The chosen works; the candidates' keys start with it too (a change reloads both). */
const BEST_KEY = ["best-work"] as const;

function BestRow({
  b,
  first,
  last,
  onMove,
  onChanged,
}: {
  b: BestWorkAdmin;
  first: boolean;
  last: boolean;
  onMove: (d: -1 | 1) => void;
  onChanged: () => void;
}) {
  const { message } = App.useApp();
  const [text, setText] = useState(b.text);
  const [video, setVideo] = useState(b.videoUrl ?? "");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setText(b.text);
    setVideo(b.videoUrl ?? "");
  }, [b.text, b.videoUrl]);
  const save = async (patch: Record<string, unknown>, done: string) => {
    setBusy(true);
    const r = await put<BestWorkAdmin>(`${ADM}/${b.id}`, patch);
    setBusy(false);
    if (r.error === 0) onChanged();
    void done;
  };
  const upload = async (file: File) => {
    if (!/^image\/(png|jpeg)$/.test(file.type)) return void message.error("封面只能是 PNG 或 JPEG 图片");
    if (file.size > 5 * 1024 * 1024) return void message.error("封面图片不能超过 5 MB");
    const form = new FormData();
    form.append("file", file);
    setBusy(true);
    const r = await post<BestWorkAdmin>(`${ADM}/${b.id}/cover`, form);
    setBusy(false);
    if (r.error === 0) onChanged();
  };
  const dirty = text !== b.text || video !== (b.videoUrl ?? "");
  return (
    <Card size="small" style={{ marginBottom: 12 }} data-testid={`best-${b.workId}`}>
      <div style={{ display: "flex", gap: 16, flexWrap: "wrap" }}>
        <div style={{ width: 200 }}>
          {b.coverUrl ? (
            <Image src={b.coverUrl} width={200} height={112} style={{ objectFit: "cover", borderRadius: 6 }} alt="封面" />
          ) : (
            <div
              style={{
                width: 200,
                height: 112,
                background: "#f0f2f5",
                borderRadius: 6,
                display: "flex",
                alignItems: "center",
                justifyContent: "center",
                color: "#999",
              }}
            >
              未设置封面
            </div>
          )}
          <Upload accept="image/png,image/jpeg" showUploadList={false} beforeUpload={(f) => (void upload(f), false)}>
            <Button size="small" icon={<PictureOutlined />} style={{ marginTop: 8 }} loading={busy} data-testid="best-cover">
              {b.coverUrl ? "更换封面" : "上传封面"}
            </Button>
          </Upload>
        </div>
        <div style={{ flex: 1, minWidth: 280 }}>
          <Space wrap style={{ marginBottom: 6 }}>
            <Typography.Text strong>{b.workName}</Typography.Text>
            {b.awardName ? <Tag color="red">{b.awardName}</Tag> : <Tag>奖项已撤回发布</Tag>}
            <Typography.Text type="secondary">
              {b.contestName} · {b.categoryName} · {b.schoolName}
            </Typography.Text>
          </Space>
          <Input.TextArea
            rows={2}
            maxLength={500}
            showCount
            placeholder="简短介绍（显示在优秀作品中）"
            aria-label="简短介绍"
            value={text}
            onChange={(e) => setText(e.target.value)}
            data-testid="best-text"
          />
          <Input
            style={{ marginTop: 24 }}
            maxLength={500}
            placeholder="作品视频地址（http:// 或 https://，可选）"
            aria-label="作品视频地址"
            value={video}
            onChange={(e) => setVideo(e.target.value)}
          />
          <Space style={{ marginTop: 8 }} wrap>
            <Button
              type="primary"
              size="small"
              disabled={!dirty}
              loading={busy}
              onClick={() => save({ text, videoUrl: video.trim() || null }, "已保存")}
              data-testid="best-save"
            >
              保存
            </Button>
            <Switch
              checked={b.published}
              checkedChildren="已发布"
              unCheckedChildren="未发布"
              loading={busy}
              onChange={(v) => save({ published: v }, v ? "已发布到优秀作品" : "已取消发布")}
              data-testid="best-publish"
            />
            <Button size="small" icon={<ArrowUpOutlined />} disabled={first} onClick={() => onMove(-1)} aria-label="上移" />
            <Button size="small" icon={<ArrowDownOutlined />} disabled={last} onClick={() => onMove(1)} aria-label="下移" />
            <Popconfirm
              title="移出优秀作品？"
              onConfirm={async () => {
                const r = await del(`${ADM}/${b.id}`);
                if (r.error === 0) onChanged();
              }}
            >
              <Button size="small" danger>
                移出
              </Button>
            </Popconfirm>
          </Space>
        </div>
      </div>
    </Card>
  );
}

export default function BestWorkPage({ route }: PageProps) {
  const qc = useQueryClient();
  const [filters, setFilters] = useState<{ contestId?: number; categoryId?: number; awardLevelId?: number; keyword?: string }>(
    {},
  );
  const [page, setPage] = useState(1);
  const listQuery = useQuery({ queryKey: BEST_KEY, queryFn: () => fetchData<BestWorkAdmin[]>(ADM) });
  // The candidates of the last filters stay while the next ones load.
  const candsQuery = useQuery({
    queryKey: [...BEST_KEY, "candidates", filters, page],
    queryFn: () => fetchData<PageOf<Candidate>>(`${ADM}/candidates`, { ...filters, current: page, pageSize: 10 }),
    placeholderData: keepPreviousData,
  });
  const optionsQuery = useQuery({
    queryKey: ["mainpage", "results", "options"],
    queryFn: () => fetchData<ResultOptions>("/Backend/Public/mainpage/results/options"),
  });
  const list = listQuery.data ?? null;
  const cands = candsQuery.data ?? null;
  const options = optionsQuery.data ?? null;
  const refresh = () => void qc.invalidateQueries({ queryKey: BEST_KEY });
  const move = async (i: number, d: -1 | 1) => {
    if (!list) return;
    const ids = list.map((b) => b.id);
    [ids[i], ids[i + d]] = [ids[i + d], ids[i]];
    const r = await put<BestWorkAdmin[]>(`${ADM}/order`, { ids }, { silent: true });
    if (r.error === 0 && r.data) qc.setQueryData(BEST_KEY, r.data);
  };
  const choose = async (workId: number) => {
    const r = await post<BestWorkAdmin>(ADM, { workId });
    if (r.error === 0) refresh();
  };
  const setFilter = (k: string, v: unknown) => {
    setPage(1);
    setFilters((f) => ({ ...f, [k]: v || undefined }));
  };

  return (
    <Space direction="vertical" style={{ width: "100%" }} size="middle">
      <Card
        title={route.label}
        extra={
          <a href="/mainpage/best" target="_blank" rel="noreferrer">
            查看公开页面
          </a>
        }
      >
        <Typography.Paragraph type="secondary">
          已发布的作品按下列顺序显示在大赛主页的「优秀作品」中；作品的奖项被撤回发布时自动不再显示。
        </Typography.Paragraph>
        {list === null ? null : list.length ? (
          list.map((b, i) => (
            <BestRow
              key={b.id}
              b={b}
              first={i === 0}
              last={i === list.length - 1}
              onMove={(d) => void move(i, d)}
              onChanged={refresh}
            />
          ))
        ) : (
          <Empty description="还没有选择优秀作品，请从下方的获奖作品中选择" />
        )}
      </Card>
      <Card title="从获奖作品中选择">
        <Space wrap style={{ marginBottom: 12 }}>
          <Select
            allowClear
            placeholder="赛事"
            aria-label="赛事"
            style={{ width: 320 }}
            options={options?.contests.map((c) => ({ value: c.id, label: c.name }))}
            onChange={(v) => setFilter("contestId", v)}
          />
          <Select
            allowClear
            placeholder="作品大类"
            aria-label="作品大类"
            style={{ width: 180 }}
            options={options?.categories.map((c) => ({ value: c.id, label: c.name }))}
            onChange={(v) => setFilter("categoryId", v)}
          />
          <Select
            allowClear
            placeholder="奖项"
            aria-label="奖项"
            style={{ width: 160 }}
            options={options?.awards.map((c) => ({ value: c.id, label: c.name }))}
            onChange={(v) => setFilter("awardLevelId", v)}
          />
          <Input.Search
            allowClear
            placeholder="作品、学校或作者"
            aria-label="作品、学校或作者"
            maxLength={50}
            style={{ width: 220 }}
            onSearch={(v) => setFilter("keyword", v.trim())}
          />
        </Space>
        <Table<Candidate>
          rowKey={(r) => `${r.contestId}-${r.workId}`}
          size="middle"
          dataSource={cands?.list ?? []}
          loading={cands === null}
          pagination={{ current: page, pageSize: 10, total: cands?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          data-testid="best-candidates"
          columns={[
            { title: "作品", dataIndex: "workName" },
            { title: "奖项", dataIndex: "awardName", width: 100 },
            { title: "大类", dataIndex: "categoryName", width: 140 },
            { title: "学校", dataIndex: "schoolName", width: 160 },
            { title: "赛事", dataIndex: "contestName" },
            {
              title: "操作",
              width: 110,
              render: (_, r) =>
                r.chosen ? (
                  <Tag>已选入</Tag>
                ) : (
                  <Button
                    size="small"
                    icon={<PlusOutlined />}
                    onClick={() => void choose(r.workId)}
                    data-testid={`choose-${r.workId}`}
                  >
                    选入
                  </Button>
                ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
