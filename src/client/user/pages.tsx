/** The four user pages: one list, four variants (./variants.ts). */
import type { PageProps } from "../routing/model";
import { UserList } from "./UserList";
import { VARIANTS } from "./variants";

/** /admin/UserManagement (root): every user. */
export const AllUsersPage = ({ route }: PageProps) => <UserList route={route} variant={VARIANTS.all} />;
/** /ContestAdmin/UserManagement: judges and reviewers of the admin's contests. */
export const ContestUsersPage = ({ route }: PageProps) => <UserList route={route} variant={VARIANTS.contest} />;
/** /school/AuthorManagement: the own school's students. */
export const StudentsPage = ({ route }: PageProps) => <UserList route={route} variant={VARIANTS.students} />;
/** /school/TeacherManagement: the own school's teachers. */
export const TeachersPage = ({ route }: PageProps) => <UserList route={route} variant={VARIANTS.teachers} />;
