/**
 * The 证书打印 tab of both print pages: filters (group, award, school, holder kind, status,
 * keyword, 仅未打印), the certificates of the contest with their print counts, row selection
 * (or every certificate matching the filters), 浏览器打印 (the print view) and 生成 PDF (the
 * server's job), and a drawer with each certificate's print log. Revoked and replaced
 * certificates are listed but cannot be selected: they are never printed.
 */
import { useEffect, useMemo, useState } from "react";
import { Alert, App, Button, Checkbox, Input, Select, Space, Table, Tag, Tooltip, Typography } from "antd";
import { FilePdfOutlined, PrinterOutlined } from "@ant-design/icons";
import type { TableColumnsType } from "antd";
import { CERT_STATUS_NAMES } from "../../shared/certificate/schema";
import {
  CERT_ROW_STATUS,
  HOLDER_KINDS,
  HOLDER_KIND_NAMES,
  PRINT_LIMITS,
  type BrowserPrint,
  type CertContest,
  type CertificateRow,
  type PrintBody,
} from "../../shared/certificate/print-schema";
import { SchoolPicker } from "../account/SchoolPicker";
import { fmtShortTime } from "../format";
import { useGroups } from "../judging/admin/api";
import { certApi, useAwardLevels, useCertList, useCertRefresh } from "./print-api";
import { PdfDialog } from "./PdfDialog";
import { PrintLogDrawer } from "./PrintLogDrawer";
import { PrintView } from "./PrintView";
import { StatusTag } from "./parts";
import type { PrintMode, useCertParams } from "./use-cert-params";

/** At most this many certificates are sent by id (the API's bound); more: 选择全部符合条件. */
const MAX_IDS = 5000;

export function PrintTab({
  mode,
  contest,
  params,
}: {
  mode: PrintMode;
  contest: CertContest;
  params: ReturnType<typeof useCertParams>;
}) {
  const { modal, message } = App.useApp();
  const { filters, current, pageSize } = params;
  const query = useMemo(
    () => ({ contestId: contest.id, ...filters, current, pageSize }),
    [contest.id, filters, current, pageSize],
  );
  const list = useCertList(query);
  const groups = useGroups(contest.id);
  const awards = useAwardLevels();
  const refresh = useCertRefresh();

  const [selected, setSelected] = useState<Map<number, CertificateRow>>(new Map());
  const [allMatching, setAllMatching] = useState(false);
  const [logOf, setLogOf] = useState<CertificateRow | null>(null);
  const [pdfOpen, setPdfOpen] = useState(false);
  const [printing, setPrinting] = useState(false);
  const [sheets, setSheets] = useState<BrowserPrint | null>(null);

  // A different contest or filter starts a new selection.
  const filterKey = JSON.stringify([contest.id, filters]);
  useEffect(() => {
    setSelected(new Map());
    setAllMatching(false);
  }, [filterKey]);

  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;
  const printable = (r: CertificateRow) => r.status === "valid";
  const pageRows = rows.filter(printable);
  const pageAllSelected = pageRows.length > 0 && pageRows.every((r) => selected.has(r.id));
  const count = allMatching ? total : selected.size;
  // The selected rows as last listed (print counts change after a print).
  const fresh = (r: CertificateRow) => rows.find((x) => x.id === r.id) ?? r;
  const reprints = allMatching ? 0 : [...selected.values()].filter((r) => fresh(r).printCount > 0).length;

  const body = (): PrintBody =>
    allMatching ? { filters: { contestId: contest.id, ...filters } } : { ids: [...selected.keys()] };
  const tooManyIds =
    !allMatching && selected.size > MAX_IDS ? `逐张勾选最多 ${MAX_IDS} 张，请改用「选择全部符合条件」` : undefined;
  const browserLimit =
    tooManyIds ??
    (count > PRINT_LIMITS.browser ? `浏览器打印一次最多 ${PRINT_LIMITS.browser} 张，请缩小筛选范围或生成 PDF` : undefined);
  const pdfLimit = tooManyIds ?? (count > PRINT_LIMITS.pdf ? `一个 PDF 最多 ${PRINT_LIMITS.pdf} 张，请缩小筛选范围` : undefined);

  const browserPrint = async () => {
    setPrinting(true);
    const reply = await certApi.printBrowser(body());
    setPrinting(false);
    if (reply.error !== 0 || !reply.data) {
      message.error(reply.info || "打印失败");
      return;
    }
    refresh();
    setSelected(new Map());
    setAllMatching(false);
    if (reply.data.skipped) message.warning(`已跳过 ${reply.data.skipped} 张已撤销或已被替换的证书`);
    setSheets(reply.data);
  };
  const onBrowserPrint = () => {
    if (!reprints) return void browserPrint();
    modal.confirm({
      title: "补打确认",
      content: `选中的 ${count} 张证书中有 ${reprints} 张已经打印过，本次打印将记为补打。`,
      okText: "继续打印",
      cancelText: "取消",
      onOk: browserPrint,
    });
  };

  const columns: TableColumnsType<CertificateRow> = [
    {
      title: "证书编号",
      width: 170,
      render: (_, r) => (
        <div>
          <Typography.Link onClick={() => setLogOf(r)} style={{ whiteSpace: "nowrap" }} data-testid="cert-number">
            {r.number}
          </Typography.Link>
          {r.version > 1 && (
            <div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                第 {r.version} 版
              </Typography.Text>
            </div>
          )}
        </div>
      ),
    },
    {
      title: "持证人",
      width: 130,
      render: (_, r) => (
        <Space size={4}>
          <span data-testid="cert-holder">{r.holderName}</span>
          {r.holderKind !== "author" && <Tag color="purple">{HOLDER_KIND_NAMES[r.holderKind]}</Tag>}
        </Space>
      ),
    },
    { title: "学校", dataIndex: "schoolName", width: 120 },
    {
      title: "作品",
      width: 190,
      render: (_, r) =>
        r.workTitle ? (
          <div>
            <div>《{r.workTitle}》</div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {[r.categoryName, r.groupName].filter(Boolean).join(" · ")}
            </Typography.Text>
          </div>
        ) : (
          "—"
        ),
    },
    {
      title: "奖项",
      dataIndex: "awardName",
      width: 90,
      render: (v: string) => <span style={{ whiteSpace: "nowrap" }}>{v}</span>,
    },
    { title: "状态", width: 70, render: (_, r) => <StatusTag row={r} /> },
    {
      title: "打印",
      width: 120,
      render: (_, r) =>
        r.printCount ? (
          <div data-testid="cert-printed">
            <div>已打印 {r.printCount} 次</div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {fmtShortTime(r.lastPrintedAt)}
            </Typography.Text>
          </div>
        ) : (
          <Typography.Text type="secondary" data-testid="cert-printed">
            未打印
          </Typography.Text>
        ),
    },
    { title: "", width: 80, render: (_, r) => <Typography.Link onClick={() => setLogOf(r)}>打印记录</Typography.Link> },
  ];

  const levelAwards = (awards.data ?? []).filter((a) => a.contestLevel === contest.level);

  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }}>
      {mode === "contest" && (
        <Typography.Text type="secondary">
          按学生打印：输入学生姓名（或证书编号、作品名称）查找其获奖证书，勾选后打印；「持证人类型」可切换到指导教师和学校的证书。
        </Typography.Text>
      )}
      <Space wrap data-testid="cert-filters">
        <Input.Search
          key={filters.keyword ?? ""}
          defaultValue={filters.keyword}
          allowClear
          maxLength={50}
          style={{ width: 260 }}
          placeholder={mode === "contest" ? "学生姓名、证书编号或作品名称" : "姓名、证书编号或作品名称"}
          onSearch={(v) => params.setFilters({ keyword: v.trim() || undefined })}
          data-testid="cert-keyword"
        />
        <Select
          allowClear
          placeholder="全部持证人"
          style={{ width: 130 }}
          value={filters.holderKind}
          options={HOLDER_KINDS.map((k) => ({ value: k, label: HOLDER_KIND_NAMES[k] }))}
          onChange={(v) => params.setFilters({ holderKind: v })}
          data-testid="cert-holder-kind"
        />
        <Select
          allowClear
          placeholder="全部分组"
          style={{ width: 180 }}
          value={filters.groupId}
          loading={groups.isPending}
          options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
          onChange={(v) => params.setFilters({ groupId: v })}
          data-testid="cert-group"
        />
        <Select
          allowClear
          placeholder="全部奖项"
          style={{ width: 140 }}
          value={filters.awardLevelId}
          options={levelAwards.map((a) => ({ value: a.id, label: a.name }))}
          onChange={(v) => params.setFilters({ awardLevelId: v })}
          data-testid="cert-award"
        />
        <SchoolPicker
          size="middle"
          allowClear
          placeholder="全部学校"
          style={{ width: 200 }}
          testId="cert-school"
          value={filters.schoolId}
          onChange={(v) => params.setFilters({ schoolId: v ?? undefined })}
        />
        <Select
          allowClear
          placeholder="全部状态"
          style={{ width: 150 }}
          value={filters.status}
          options={CERT_ROW_STATUS.map((s) => ({ value: s, label: CERT_STATUS_NAMES[s] }))}
          onChange={(v) => params.setFilters({ status: v })}
          data-testid="cert-status-filter"
        />
        <Checkbox
          checked={filters.unprinted === true}
          onChange={(e) => params.setFilters({ unprinted: e.target.checked ? true : undefined })}
          data-testid="cert-unprinted"
        >
          仅未打印
        </Checkbox>
      </Space>

      <Space wrap align="center" data-testid="cert-selection">
        <Tooltip title={browserLimit}>
          <Button
            type="primary"
            icon={<PrinterOutlined />}
            disabled={!count || !!browserLimit}
            loading={printing}
            onClick={onBrowserPrint}
            data-testid="cert-print-browser"
          >
            浏览器打印
          </Button>
        </Tooltip>
        <Tooltip title={pdfLimit}>
          <Button
            icon={<FilePdfOutlined />}
            disabled={!count || !!pdfLimit}
            onClick={() => setPdfOpen(true)}
            data-testid="cert-print-pdf"
          >
            生成 PDF
          </Button>
        </Tooltip>
        {allMatching ? (
          <Typography.Text data-testid="cert-selected">
            已选择全部符合条件的 {total} 张证书（已撤销、已被替换的不打印）
          </Typography.Text>
        ) : (
          <Typography.Text data-testid="cert-selected">
            已选择 {selected.size} 张{reprints ? `，其中 ${reprints} 张已打印过（再次打印记为补打）` : ""}
          </Typography.Text>
        )}
        {!allMatching && pageAllSelected && total > selected.size && (
          <Typography.Link onClick={() => setAllMatching(true)} data-testid="cert-select-all">
            选择全部符合条件的 {total} 张
          </Typography.Link>
        )}
        {(allMatching || selected.size > 0) && (
          <Typography.Link onClick={() => (setAllMatching(false), setSelected(new Map()))} data-testid="cert-clear-selection">
            清除选择
          </Typography.Link>
        )}
      </Space>

      {list.isError && <Alert type="error" showIcon message={list.error.message} />}
      <Table<CertificateRow>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={rows}
        columns={columns}
        scroll={{ x: 1020 }}
        data-testid="cert-list"
        rowSelection={{
          preserveSelectedRowKeys: true,
          selectedRowKeys: allMatching ? pageRows.map((r) => r.id) : [...selected.keys()],
          getCheckboxProps: (r) => ({ disabled: allMatching || !printable(r) }),
          onChange: (keys, picked) => {
            const next = new Map<number, CertificateRow>();
            for (const k of keys as number[]) {
              const row = picked.find((r) => r?.id === k) ?? selected.get(k);
              if (row && printable(row)) next.set(k, row);
            }
            setSelected(next);
          },
        }}
        pagination={{
          current,
          pageSize,
          total,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100, 200],
          showTotal: (t) => `共 ${t} 张`,
          onChange: params.setPage,
        }}
        locale={{ emptyText: contest.published ? "没有符合条件的证书" : "该赛事的结果尚未发布，还没有证书" }}
      />

      <PrintLogDrawer row={logOf} onClose={() => setLogOf(null)} />
      <PdfDialog
        open={pdfOpen}
        count={count}
        body={pdfOpen ? body() : null}
        onClose={(done) => {
          setPdfOpen(false);
          refresh();
          if (done) {
            setSelected(new Map());
            setAllMatching(false);
          }
        }}
      />
      {sheets && <PrintView data={sheets} onClose={() => setSheets(null)} />}
    </Space>
  );
}
