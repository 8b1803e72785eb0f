/** The national round's incoming works per province (src/server/national/entries.ts). */
export interface IncomingEntry {
  id: number;
  workId: number;
  workName: string;
  categoryId: number;
  categoryName: string;
  status: "entered" | "withdrawn";
  formatStatus: string;
  withdrawReason: string | null;
}
export interface IncomingProvince {
  fromContestId: number;
  fromContestName: string;
  province: string | null;
  quota: number | null;
  used: number;
  perCategory: { categoryId: number; categoryName: string; quota: number | null; used: number }[];
  entries: IncomingEntry[];
}

