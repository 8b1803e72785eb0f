/**
 * A news cover for antd forms: an uploaded image (sent as a data: URL of at most 500 KB)
 * or an http(s) image address; null for none.
 */
import { App, Button, Image, Input, Space, Upload } from "antd";
import { DeleteOutlined, UploadOutlined } from "@ant-design/icons";
import { COVER_MAX_BYTES } from "../../shared/news/schema";
import { ImageReadError, readImage } from "../richtext/read-image";

export function CoverInput({ value, onChange }: { value?: string | null; onChange?: (v: string | null) => void }) {
  const { message } = App.useApp();
  const uploaded = !!value && value.startsWith("data:");
  const pick = async (file: File) => {
    try {
      onChange?.(await readImage(file, COVER_MAX_BYTES));
    } catch (e) {
      message.error(e instanceof ImageReadError ? e.message : "图片读取失败");
    }
  };
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      <Space wrap>
        <Upload
          accept="image/png,image/jpeg,image/gif,image/webp,image/bmp"
          showUploadList={false}
          beforeUpload={(f) => (void pick(f), false)}
        >
          <Button icon={<UploadOutlined />}>上传图片</Button>
        </Upload>
        <Input
          allowClear
          style={{ width: 380 }}
          placeholder="或填写图片地址 https://…"
          value={uploaded ? "" : (value ?? "")}
          disabled={uploaded}
          onChange={(e) => onChange?.(e.target.value.trim() ? e.target.value : null)}
          data-testid="news-cover-url"
        />
        {value && (
          <Button icon={<DeleteOutlined />} onClick={() => onChange?.(null)}>
            去掉封面
          </Button>
        )}
      </Space>
      {value && <Image src={value} alt="封面" width={240} style={{ objectFit: "cover", maxHeight: 140 }} />}
    </Space>
  );
}
