/** The selection bar of the 证书打印 tab: 浏览器打印, 生成 PDF, what is selected, 选择全部符合条件 and 清除选择. */
import { Button, Space, Tooltip, Typography } from "antd";
import { FilePdfOutlined, PrinterOutlined } from "@ant-design/icons";
import { PRINT_LIMITS } from "../../shared/certificate/print-schema";

/** At most this many certificates are sent by id (the API's bound); more: 选择全部符合条件. */
const MAX_IDS = 5000;

/** Why 浏览器打印 / 生成 PDF cannot take the selection (undefined: they can). */
export function printLimits(allMatching: boolean, selectedSize: number, count: number) {
  const tooManyIds =
    !allMatching && selectedSize > MAX_IDS ? `逐张勾选最多 ${MAX_IDS} 张，请改用「选择全部符合条件」` : undefined;
  const browserLimit =
    tooManyIds ??
    (count > PRINT_LIMITS.browser ? `浏览器打印一次最多 ${PRINT_LIMITS.browser} 张，请缩小筛选范围或生成 PDF` : undefined);
  const pdfLimit = tooManyIds ?? (count > PRINT_LIMITS.pdf ? `一个 PDF 最多 ${PRINT_LIMITS.pdf} 张，请缩小筛选范围` : undefined);

  return { browserLimit, pdfLimit };
}

export function PrintSelectionBar({
  count,
  total,
  selectedCount,
  reprints,
  allMatching,
  pageAllSelected,
  printing,
  browserLimit,
  pdfLimit,
  onBrowserPrint,
  onPdf,
  onSelectAll,
  onClear,
}: {
  count: number;
  total: number;
  selectedCount: number;
  reprints: number;
  allMatching: boolean;
  pageAllSelected: boolean;
  printing: boolean;
  browserLimit: string | undefined;
  pdfLimit: string | undefined;
  onBrowserPrint: () => void;
  onPdf: () => void;
  onSelectAll: () => void;
  onClear: () => void;
}) {
  return (
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
        <Button icon={<FilePdfOutlined />} disabled={!count || !!pdfLimit} onClick={onPdf} data-testid="cert-print-pdf">
          生成 PDF
        </Button>
      </Tooltip>
      {allMatching ? (
        <Typography.Text data-testid="cert-selected">
          已选择全部符合条件的 {total} 张证书（已撤销、已被替换的不打印）
        </Typography.Text>
      ) : (
        <Typography.Text data-testid="cert-selected">
          已选择 {selectedCount} 张{reprints ? `，其中 ${reprints} 张已打印过（再次打印记为补打）` : ""}
        </Typography.Text>
      )}
      {!allMatching && pageAllSelected && total > selectedCount && (
        <Typography.Link onClick={onSelectAll} data-testid="cert-select-all">
          选择全部符合条件的 {total} 张
        </Typography.Link>
      )}
      {(allMatching || selectedCount > 0) && (
        <Typography.Link onClick={onClear} data-testid="cert-clear-selection">
          清除选择
        </Typography.Link>
      )}
    </Space>
  );
}
