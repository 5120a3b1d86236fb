// Who is acting: a person in a workspace, as their access token names them. Drive and Documents act for one.
export interface Caller {
  userUuid: string;
  workspaceUuid: string;
}
