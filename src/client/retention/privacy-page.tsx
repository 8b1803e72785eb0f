/** /admin/Privacy (root): how long personal contact data is kept after a contest ends, and what the last purge did. */
import { Space, Typography } from "antd";
import { RetentionCard } from "./retention-card";

const INTRO =
  "个人信息按《个人信息保护法》处理：每位用户可在「账号安全」页下载平台保存的本人信息；手机号对他人只显示部分数字，查看完整号码会记入审计日志。";

export default function PrivacyPage() {
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {INTRO}
      </Typography.Paragraph>
      <RetentionCard />
    </Space>
  );
}
