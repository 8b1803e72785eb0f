/** Reads a picked image file as a data: URL, refusing types the server drops and files over a size. */
const RASTER = /^image\/(png|jpe?g|gif|webp|bmp)$/i;

export class ImageReadError extends Error {}

export function readImage(file: File, maxBytes: number): Promise<string> {
  if (!RASTER.test(file.type)) return Promise.reject(new ImageReadError("请选择 PNG、JPEG、GIF、WebP 或 BMP 图片"));
  if (file.size > maxBytes) {
    return Promise.reject(
      new ImageReadError(`图片不能超过 ${Math.floor(maxBytes / 1024)} KB（当前约 ${Math.ceil(file.size / 1024)} KB）`),
    );
  }
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new ImageReadError("图片读取失败，请重试"));
    reader.readAsDataURL(file);
  });
}
