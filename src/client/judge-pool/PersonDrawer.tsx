/** The detail drawer of a pool person: public fields, contacts (when in scope) and the computed history. */
import { Alert, Button, Card, Drawer, Skeleton, Space, Typography } from "antd";
import { EditOutlined } from "@ant-design/icons";
import type { JudgePersonView } from "../../shared/judge-pool/schema";
import { PERSONS, useHistory } from "./api";
import { RevealPhone } from "../components/RevealPhone";
import { HistoryView, PersonFacts } from "./parts";

export function PersonDrawer({
  person,
  onClose,
  onEdit,
}: {
  person: JudgePersonView | null;
  onClose: () => void;
  onEdit: (p: JudgePersonView) => void;
}) {
  const history = useHistory(person?.id ?? null);
  // The list's contacts carry the phone masked; the full number is one audited view of the contact route.
  const contactText = !person ? null : !person.contactVisible ? (
    <Typography.Text type="secondary">仅本人赛事的评委、您邀请或录入的评委可查看联系方式</Typography.Text>
  ) : (
    <Space split="｜" data-testid="person-contact">
      <span>邮箱：{person.email ?? "—"}</span>
      <span>
        手机：
        <RevealPhone phone={person.phone} url={`${PERSONS}/${person.id}/contact`} canReveal owner="评委的" />
      </span>
    </Space>
  );
  return (
    <Drawer
      open={!!person}
      onClose={onClose}
      width={880}
      title={person ? `评委详情：${person.name}` : ""}
      extra={
        person && (
          <Button icon={<EditOutlined />} onClick={() => onEdit(person)}>
            编辑
          </Button>
        )
      }
      destroyOnHidden
    >
      {person && (
        <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="person-drawer">
          <PersonFacts p={person} contact={contactText} />
          <Card size="small" title="评审经历（根据平台数据计算）">
            {history.isLoading ? (
              <Skeleton active />
            ) : history.error ? (
              <Alert type="error" showIcon message={history.error.message} />
            ) : (
              history.data && <HistoryView history={history.data} />
            )}
          </Card>
        </Space>
      )}
    </Drawer>
  );
}
