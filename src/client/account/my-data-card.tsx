/** /account/security: download everything the platform holds about me as one JSON file (个人信息保护法). */
import { Button, Card, Space, Typography } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { useMutation, useQuery } from "@tanstack/react-query";
import { get } from "../request";
import { currentUserQuery } from "../providers/session";
import { formatBeijing } from "../../shared/time";

const INCLUDED =
  "按照《个人信息保护法》，您可以下载平台保存的与您本人有关的全部信息（JSON 文件）：账号资料（姓名、邮箱、手机号、学校、学号/工号、专业、角色）、登录记录（时间、IP 地址、浏览器）、您作为作者或指导教师的作品（队员只含姓名）及已公布的获奖结果、您作为评委给出的评分和评语、您提交的申诉/投诉（含用已验证邮箱以访客身份提交的）、评委库中您的记录、您的证书、API 令牌（名称、权限和日期）和邮件提醒设置。文件不含密码和其他人的联系方式；每次下载都会记入审计日志。";

export const MY_DATA_URL = "/Backend/Common/account/my-data";

/** Saves a JSON value as a file through a temporary link. */
function saveJson(value: unknown, filename: string) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function MyDataCard() {
  const me = useQuery(currentUserQuery);
  const download = useMutation({
    mutationFn: async () => {
      const reply = await get<unknown>(MY_DATA_URL, undefined, { silent: true });
      if (reply.error !== 0) throw new Error(reply.info);
      const name = me.data?.username ?? "me";
      saveJson(reply.data, `my-data-${name}-${formatBeijing(Date.now(), "YYYY-MM-DD")}.json`);
    },
  });
  return (
    <Card title="下载我的个人数据" data-testid="my-data-card">
      <Space direction="vertical">
        <Typography.Paragraph style={{ marginBottom: 0 }}>{INCLUDED}</Typography.Paragraph>
        <Button
          type="primary"
          icon={<DownloadOutlined />}
          loading={download.isPending}
          onClick={() => download.mutate()}
          data-testid="my-data-download"
        >
          下载我的数据
        </Button>
      </Space>
    </Card>
  );
}
