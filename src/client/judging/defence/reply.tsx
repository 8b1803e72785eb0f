/**
 * /contest/reply/:code (no layout): the authors' defence link. Anyone holding the link sees
 * the work's id and name, the time slot, the place or meeting link and what to prepare.
 * A logged-in author of the work uploads the defence material (pdf, ppt/pptx, zip or mp4;
 * a new file replaces the previous one, which is kept) and sees what was uploaded; after
 * the group leader signs off, uploads are closed.
 */
import { useState } from "react";
import { useParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  List,
  Progress,
  Result,
  Skeleton,
  Space,
  Tag,
  Typography,
  Upload,
} from "antd";
import { CalendarOutlined, LinkOutlined, LoginOutlined, UploadOutlined } from "@ant-design/icons";
import type { ReplyView } from "../../../shared/judging/defence-schema";
import { sizeText } from "../../../shared/work/files";
import { useSession } from "../../providers/use-session";
import type { PageProps } from "../../routing/model";
import { defenceKeys, replyFileUrl, timeText, uploadDefence, useReply } from "./api";
import "./defence.css";

function Material({ code, v }: { code: string; v: ReplyView }) {
  const { loggedIn } = useSession();
  const [percent, setPercent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const accept = v.limits.map((l) => `.${l.type}`).join(",");

  const send = async (file: File) => {
    setError(null);
    setPercent(0);
    const r = await uploadDefence(code, file, setPercent);
    setPercent(null);
    if (r.error !== 0) return setError(r.info || "上传失败，请稍后重试");
    message.success(r.info);
    await qc.invalidateQueries({ queryKey: defenceKeys.reply(code) });
  };

  if (!loggedIn) {
    return (
      <Space direction="vertical">
        <Typography.Text>已上传答辩材料 {v.fileCount} 份。上传或查看答辩材料请先用作者本人的账号登录。</Typography.Text>
        <Button
          icon={<LoginOutlined />}
          href={`/account/StudentLogin?to=${encodeURIComponent(`/contest/reply/${code}`)}`}
          data-testid="reply-login"
        >
          作者登录
        </Button>
      </Space>
    );
  }
  if (!v.isAuthor)
    return (
      <Alert type="info" showIcon message="只有该作品的作者（已确认参赛）可以上传和查看答辩材料" data-testid="reply-not-author" />
    );

  return (
    <Space direction="vertical" style={{ width: "100%" }} size={12}>
      <Typography.Text type="secondary">
        可上传 {v.limits.map((l) => `${l.type}（≤ ${l.maxSizeMB} MB）`).join("、")}
        ；只保留最新上传的一份，之前的文件留档。多个文件请打包为 zip。
      </Typography.Text>
      {v.closed ? (
        <Alert type="warning" showIcon message="本组答辩已结束（专家组长已签署结果），不能再上传答辩材料" />
      ) : (
        <Upload
          accept={accept}
          showUploadList={false}
          beforeUpload={(file) => {
            void send(file);
            return false;
          }}
          disabled={percent !== null}
        >
          <Button type="primary" icon={<UploadOutlined />} loading={percent !== null} data-testid="reply-upload">
            上传答辩材料
          </Button>
        </Upload>
      )}
      {percent !== null && <Progress aria-label="上传进度" percent={percent} size="small" />}
      {error && <Alert type="error" showIcon message={error} data-testid="reply-upload-error" />}
      <List
        size="small"
        bordered
        data-testid="reply-files"
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚未上传答辩材料" /> }}
        dataSource={v.files}
        renderItem={(f) => (
          <List.Item extra={<Typography.Text type="secondary">{timeText(f.createdAt)}</Typography.Text>}>
            <Space>
              <a href={replyFileUrl(code, f.id)}>{f.filename}</a>
              <Typography.Text type="secondary">{sizeText(f.size)}</Typography.Text>
              {f.current ? <Tag color="green">当前</Tag> : <Tag>已替换</Tag>}
            </Space>
          </List.Item>
        )}
      />
    </Space>
  );
}

export default function DefenceReply(_: PageProps) {
  const { code = "" } = useParams();
  const valid = /^[A-Za-z0-9_-]{16,64}$/.test(code);
  const q = useReply(valid ? code : "");
  if (!valid)
    return (
      <div className="defence-screen">
        <Result status="404" title="答辩链接无效或已失效，请向赛事管理员确认" />
      </div>
    );
  if (q.isLoading)
    return (
      <div className="defence-screen">
        <Card className="defence-reply">
          <Skeleton active />
        </Card>
      </div>
    );
  if (q.error || !q.data)
    return (
      <div className="defence-screen">
        <Result
          status="404"
          title={q.error?.message ?? "答辩链接无效或已失效"}
          extra={<Button href="/">返回首页</Button>}
          data-testid="reply-error"
        />
      </div>
    );
  const v = q.data;
  const end = v.time ? new Date(new Date(v.time).getTime() + v.minutesPerWork * 60_000).toISOString() : null;

  return (
    <div className="defence-screen">
      <Space direction="vertical" size={16} className="defence-reply" style={{ display: "flex" }} data-testid="reply-page">
        <Card
          title={
            <Space>
              <CalendarOutlined />
              作品答辩通知
            </Space>
          }
        >
          <Typography.Title level={4} style={{ marginTop: 0 }} data-testid="reply-work">
            《{v.work.name}》
          </Typography.Title>
          <Descriptions bordered size="small" column={1}>
            <Descriptions.Item label="作品编号">{v.work.id}</Descriptions.Item>
            <Descriptions.Item label="作品类别">{v.work.category}</Descriptions.Item>
            <Descriptions.Item label="赛事">{v.contest}</Descriptions.Item>
            <Descriptions.Item label="答辩组">{v.group}</Descriptions.Item>
            <Descriptions.Item label="答辩顺序">
              {v.drawn && v.position ? (
                <b data-testid="reply-position">第 {v.position} 位</b>
              ) : (
                <Typography.Text type="secondary">尚未抽签，抽签后公布</Typography.Text>
              )}
            </Descriptions.Item>
            <Descriptions.Item label="答辩时间">
              {v.time ? (
                <b data-testid="reply-time">
                  {timeText(v.time)} – {timeText(end, false)}
                </b>
              ) : (
                <Typography.Text type="secondary">抽签后公布（每件作品 {v.minutesPerWork} 分钟）</Typography.Text>
              )}
            </Descriptions.Item>
            {v.place && <Descriptions.Item label="地点">{v.place}</Descriptions.Item>}
            {v.meetingLink && (
              <Descriptions.Item label="会议链接">
                <a href={v.meetingLink} target="_blank" rel="noreferrer">
                  <LinkOutlined /> {v.meetingLink}
                </a>
              </Descriptions.Item>
            )}
          </Descriptions>
          {v.prepareNote && (
            <Alert
              style={{ marginTop: 16 }}
              type="info"
              showIcon
              message="请作者做好以下准备"
              description={<span style={{ whiteSpace: "pre-wrap" }}>{v.prepareNote}</span>}
            />
          )}
          {v.closed && <Alert style={{ marginTop: 16 }} type="success" showIcon message="本组答辩已结束" />}
        </Card>
        <Card title="答辩材料">
          <Material code={code} v={v} />
        </Card>
      </Space>
    </div>
  );
}
