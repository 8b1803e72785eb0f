/**
 * /admin/NoticeManagement/:noticeSection (root): one notice section — the platform-wide
 * text (contest null) and the texts of single contests, each edited as title + rich text.
 * The route's loader already refused unknown sections; the page checks again.
 */
import { useState } from "react";
import { useParams } from "react-router";
import { DeleteButton, EditButton, useTable } from "@refinedev/antd";
import { useCan, useList } from "@refinedev/core";
import { Alert, Button, Card, Form, Modal, Skeleton, Space, Table, Typography } from "antd";
import { EyeOutlined, PlusOutlined } from "@ant-design/icons";
import type { NoticeView } from "../../shared/notice/schema";
import { noticeSection, type NoticeSection } from "../../shared/notice/sections";
import { ROLE_NAMES } from "../../shared/roles";
import { NOTICE_SECTIONS, findSection } from "../admin/sections";
import { get } from "../request";
import { useDocumentTitle } from "../routing/document-title";
import type { PageProps } from "../routing/model";
import { ContestSelect } from "./contest-select";
import { NoticeDrawer, type NoticeSlot } from "./notice-drawer";
import { NoticeBody, NoticePreview, updatedText } from "./preview";

/** What a section's text is for; `contest`: said of one contest's text. */
export function sectionHint(s: NoticeSection, contest = false) {
  const role = s.role !== undefined ? ROLE_NAMES[s.role] : "";
  if (s.kind === "announcement") return contest ? `面向本赛事${role}的公告。` : `全平台的${s.name}显示在${role}的用户中心首页。`;
  return `作品页面先显示所在赛事的${s.name}；赛事没有时依次使用上级赛事的，最后使用全平台的。`;
}

export default function NoticeSectionPage({ route }: PageProps) {
  const found = findSection(NOTICE_SECTIONS, useParams().noticeSection);
  const section = found && noticeSection(found.key);
  const label = `${route.label} · ${found?.label ?? ""}`;
  useDocumentTitle(label);
  if (!section) return <Alert type="error" showIcon message="该公告栏目不存在" />;
  return <SectionNotices key={section.key} section={section} title={label} />;
}

function SectionNotices({ section, title }: { section: NoticeSection; title: string }) {
  const [slot, setSlot] = useState<NoticeSlot | null>(null);
  const [preview, setPreview] = useState<NoticeView | null>(null);
  const [picking, setPicking] = useState(false);
  const canCreate = useCan({ resource: "api.notices", action: "create" }).data?.can;
  const platform = useList<NoticeView>({
    resource: "notices",
    filters: [
      { field: "section", operator: "eq", value: section.key },
      { field: "platform", operator: "eq", value: true },
    ],
    pagination: { pageSize: 1 },
  });
  const { tableProps, tableQuery } = useTable<NoticeView>({
    resource: "notices",
    filters: {
      permanent: [
        { field: "section", operator: "eq", value: section.key },
        { field: "platform", operator: "eq", value: false },
      ],
    },
    sorters: { initial: [{ field: "updatedAt", order: "desc" }] },
    pagination: { pageSize: 20 },
    syncWithLocation: false,
  });
  const main = platform.result.data[0];
  const refetch = () => void (platform.query.refetch(), tableQuery.refetch());

  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card
        title={title}
        extra={
          main ? (
            <EditButton
              resource="notices"
              recordItemId={main.id}
              onClick={() => setSlot({ section: section.key, contestId: null, contestName: null, id: main.id })}
              data-testid="notice-edit-platform"
            >
              编辑
            </EditButton>
          ) : (
            canCreate && (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setSlot({ section: section.key, contestId: null, contestName: null })}
                data-testid="notice-edit-platform"
              >
                编写
              </Button>
            )
          )
        }
        data-testid="notice-platform"
      >
        <Typography.Paragraph type="secondary">{sectionHint(section)}</Typography.Paragraph>
        {platform.query.isPending ? (
          <Skeleton active />
        ) : main ? (
          <NoticeBody notice={main} />
        ) : (
          <Alert type="info" showIcon message={`全平台的${section.name}尚未编写`} />
        )}
      </Card>
      <Card
        title={`各赛事的${section.name}`}
        extra={
          canCreate && (
            <Button icon={<PlusOutlined />} onClick={() => setPicking(true)}>
              为赛事编写
            </Button>
          )
        }
      >
        <Table {...tableProps} rowKey="id" size="middle">
          <Table.Column<NoticeView> dataIndex="contestName" title="赛事" sorter={false} />
          <Table.Column<NoticeView> dataIndex="title" title="标题" sorter />
          <Table.Column<NoticeView> dataIndex="updatedAt" title="更新" sorter width={220} render={(_, r) => updatedText(r)} />
          <Table.Column<NoticeView>
            title="操作"
            width={220}
            render={(_, r) => (
              <Space>
                <Button size="small" icon={<EyeOutlined />} onClick={() => setPreview(r)}>
                  预览
                </Button>
                <EditButton
                  size="small"
                  resource="notices"
                  recordItemId={r.id}
                  onClick={() => setSlot({ section: r.section, contestId: r.contestId, contestName: r.contestName, id: r.id })}
                />
                <DeleteButton
                  size="small"
                  resource="notices"
                  recordItemId={r.id}
                  confirmTitle="删除该赛事的这条内容？删除后使用上级赛事或全平台的内容。"
                  onSuccess={refetch}
                />
              </Space>
            )}
          />
        </Table>
      </Card>
      <PickContest
        open={picking}
        onCancel={() => setPicking(false)}
        onPick={async (contestId, contestName) => {
          // The slot may be taken already: then its notice opens for editing.
          const taken = await get<{ list: NoticeView[] }>(
            "/Backend/Admin/notice",
            { section: section.key, contestId, pageSize: 1 },
            { silent: true },
          );
          setPicking(false);
          setSlot({ section: section.key, contestId, contestName, id: taken.data?.list[0]?.id });
        }}
      />
      <NoticeDrawer slot={slot} onClose={() => (setSlot(null), refetch())} />
      <NoticePreview notice={preview} onClose={() => setPreview(null)} />
    </Space>
  );
}

function PickContest({
  open,
  onCancel,
  onPick,
}: {
  open: boolean;
  onCancel: () => void;
  onPick: (id: number, name: string | null) => void;
}) {
  const [form] = Form.useForm<{ contestId: number }>();
  const [name, setName] = useState<string | null>(null);
  return (
    <Modal
      open={open}
      title="选择赛事"
      okText="开始编写"
      onCancel={onCancel}
      onOk={() => form.validateFields().then((v) => onPick(v.contestId, name))}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="contestId"
          label="赛事"
          rules={[{ required: true, message: "请选择赛事" }]}
          extra="该赛事已有这一栏目的内容时，将打开已有内容编辑。"
        >
          <ContestSelect onChange={(_, option) => setName(String((option as { label?: unknown } | undefined)?.label ?? ""))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
