/**
 * /admin/PrintCertification (root, every contest) and /ContestAdmin/PrintAward (contest
 * admins, their own contests, per student): one page in two modes. A contest picker (the
 * contests in scope with certificates or a published result), then two tabs: 证书打印 (filter,
 * select, browser print or PDF batch, print logs) and 证书模板 (the template editor).
 */
import { useEffect } from "react";
import { Alert, Card, Form, Select, Tabs } from "antd";
import type { PageProps } from "../routing/model";
import { useCertContests } from "./print-api";
import { contestLabel } from "./parts";
import { PrintTab } from "./PrintTab";
import { TemplateTab } from "./TemplateTab";
import { useCertParams, type PrintMode } from "./use-cert-params";

function CertificatePrintPage({ route, mode }: PageProps & { mode: PrintMode }) {
  const contests = useCertContests();
  const params = useCertParams(mode);
  const contest = contests.data?.find((c) => c.id === params.contestId);
  useEffect(() => {
    if (contests.data?.length && !contest)
      params.setContest((contests.data.find((c) => c.certificates > 0) ?? contests.data[0]).id, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [contests.data, contest]);

  return (
    <Card title={route.label} data-testid={`cert-page-${mode}`}>
      <Form layout="inline" style={{ marginBottom: 8 }}>
        <Form.Item label="赛事">
          <Select<number>
            style={{ minWidth: 460 }}
            placeholder={mode === "root" ? "选择赛事" : "选择您负责的赛事"}
            aria-label="赛事"
            loading={contests.isPending}
            value={contest?.id}
            onChange={(id) => params.setContest(id)}
            notFoundContent={contests.isError ? contests.error.message : "没有已发布结果的赛事"}
            options={(contests.data ?? []).map((c) => ({ value: c.id, label: contestLabel(c) }))}
            data-testid="cert-contest"
          />
        </Form.Item>
      </Form>
      {contests.isError && <Alert type="error" showIcon message={contests.error.message} />}
      {contests.data && !contests.data.length && (
        <Alert
          type="info"
          showIcon
          message={
            mode === "root"
              ? "还没有发布结果的赛事，发布结果后即签发证书。"
              : "您负责的赛事还没有发布结果，发布结果后即签发证书。"
          }
        />
      )}
      {contest && (
        <Tabs
          activeKey={params.tab}
          onChange={(k) => params.setTab(k === "template" ? "template" : "print")}
          data-testid="cert-tabs"
          items={[
            {
              key: "print",
              label: "证书打印",
              children: <PrintTab key={contest.id} mode={mode} contest={contest} params={params} />,
            },
            { key: "template", label: "证书模板", children: <TemplateTab key={contest.id} contest={contest} /> },
          ]}
          destroyInactiveTabPane
        />
      )}
    </Card>
  );
}

export const RootPrintPage = (props: PageProps) => <CertificatePrintPage {...props} mode="root" />;
export const ContestPrintPage = (props: PageProps) => <CertificatePrintPage {...props} mode="contest" />;
