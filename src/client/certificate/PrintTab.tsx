/**
 * The 证书打印 tab of both print pages: filters (group, award, school, holder kind, status,
 * keyword, 仅未打印), the certificates of the contest with their print counts, row selection
 * (or every certificate matching the filters), 浏览器打印 (the print view) and 生成 PDF (the
 * server's job), and a drawer with each certificate's print log. Revoked and replaced
 * certificates are listed but cannot be selected: they are never printed. The columns, the
 * filter bar and the selection bar are in print-columns.tsx, PrintFilters.tsx, PrintSelectionBar.tsx.
 */
import { useEffect, useMemo, useState } from "react";
import { Alert, App, Space, Table, Typography } from "antd";
import { type BrowserPrint, type CertContest, type CertificateRow, type PrintBody } from "../../shared/certificate/print-schema";
import { certApi, useCertList, useCertRefresh } from "./print-api";
import { PdfDialog } from "./PdfDialog";
import { certColumns } from "./print-columns";
import { PrintFilters } from "./PrintFilters";
import { PrintLogDrawer } from "./PrintLogDrawer";
import { PrintSelectionBar, printLimits } from "./PrintSelectionBar";
import { PrintView } from "./PrintView";
import type { PrintMode, useCertParams } from "./use-cert-params";

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
  const { browserLimit, pdfLimit } = printLimits(allMatching, selected.size, count);

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

  const columns = certColumns(setLogOf);

  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }}>
      {mode === "contest" && (
        <Typography.Text type="secondary">
          按学生打印：输入学生姓名（或证书编号、作品名称）查找其获奖证书，勾选后打印；「持证人类型」可切换到指导教师和学校的证书。
        </Typography.Text>
      )}
      <PrintFilters mode={mode} contestId={contest.id} contestLevel={contest.level} params={params} />

      <PrintSelectionBar
        count={count}
        total={total}
        selectedCount={selected.size}
        reprints={reprints}
        allMatching={allMatching}
        pageAllSelected={pageAllSelected}
        printing={printing}
        browserLimit={browserLimit}
        pdfLimit={pdfLimit}
        onBrowserPrint={onBrowserPrint}
        onPdf={() => setPdfOpen(true)}
        onSelectAll={() => setAllMatching(true)}
        onClear={() => (setAllMatching(false), setSelected(new Map()))}
      />

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
          getCheckboxProps: (r) => ({ disabled: allMatching || !printable(r), "aria-label": `选择证书 ${r.number}` }),
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
