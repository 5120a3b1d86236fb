// Every workflow the app starts, one entry each: the function it runs (started by reference, never by a type-name
// string), its id, how a second start with that id is treated, the search attributes operators find it by, and
// whether a start that finds it running signals it instead. workflows/client.ts starts them through this table.
// Not workflow code: it never runs in the sandbox (the worker bundles workflows/index.ts).
import {
  WorkflowIdReusePolicy,
  type SearchAttributePair,
  type SignalDefinition,
  type Workflow,
} from '@temporalio/common';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type {
  DriveCascadeKind,
  DriveCascadeStart,
  ThumbnailStart,
  WebhookDeliveryStart,
} from '../domain/unit-of-work.js';
import { documentPurgeWorkflow, documentTrashChangedSignal } from './documents.js';
import { replaceLifecycleWorkflow, uploadLifecycleWorkflow } from './drive-content.js';
import { deleteCascadeWorkflow, restoreCascadeWorkflow, trashCascadeWorkflow } from './drive-trash.js';
import {
  documentPurgeWorkflowId,
  driveCascadeWorkflowId,
  drivePushWorkflowId,
  masterKeyRotationWorkflowId,
  replaceWorkflowId,
  thumbnailWorkflowId,
  uploadWorkflowId,
  webhookDeliveryWorkflowId,
} from './ids.js';
import { masterKeyRotationWorkflow } from './master-key-rotation.js';
import { drivePushChangesSignal, drivePushWorkflow } from './push.js';
import { thumbnailWorkflow } from './thumbnail.js';
import { WEBHOOK_SEARCH_ATTRIBUTES, webhookDeliveryWorkflow } from './webhook-delivery.js';

/** Registered on the dev server at start (deploy/local/services.ts) and on a cluster by the operator. */
export const FOLIO_WORKSPACE_ID = defineSearchAttributeKey('FolioWorkspaceId', SearchAttributeType.KEYWORD);
export const FOLIO_RESOURCE_ID = defineSearchAttributeKey('FolioResourceId', SearchAttributeType.KEYWORD);
const FOLIO_WEBHOOK_DESTINATION = defineSearchAttributeKey(
  WEBHOOK_SEARCH_ATTRIBUTES.destination,
  SearchAttributeType.KEYWORD,
);
const FOLIO_WEBHOOK_EVENT = defineSearchAttributeKey(
  WEBHOOK_SEARCH_ATTRIBUTES.event,
  SearchAttributeType.KEYWORD,
);
const FOLIO_MAILBOX = defineSearchAttributeKey(
  WEBHOOK_SEARCH_ATTRIBUTES.mailbox,
  SearchAttributeType.KEYWORD,
);
const FOLIO_WEBHOOK_OUTCOME = defineSearchAttributeKey(
  WEBHOOK_SEARCH_ATTRIBUTES.outcome,
  SearchAttributeType.KEYWORD,
);
export const SEARCH_ATTRIBUTES = [
  FOLIO_WORKSPACE_ID,
  FOLIO_RESOURCE_ID,
  FOLIO_WEBHOOK_DESTINATION,
  FOLIO_WEBHOOK_EVENT,
  FOLIO_MAILBOX,
  FOLIO_WEBHOOK_OUTCOME,
];

const ownedBy = (workspaceUuid: string, resourceUuid: string): SearchAttributePair[] => [
  { key: FOLIO_WORKSPACE_ID, value: workspaceUuid },
  { key: FOLIO_RESOURCE_ID, value: resourceUuid },
];

/** Settings some workflows take as input, read from configuration by the client that starts them. */
export interface StartSettings {
  uploadExpiryMs: number;
  fileVersionRetentionMs: number;
  push: { coalesceWindowMs: number; idleMs: number };
}

export interface RegisteredWorkflow<Request, W extends Workflow = Workflow> {
  /** The workflow function; a function of the request where one entry covers several (the three cascades). */
  workflow: (request: Request) => W;
  id: (request: Request) => string;
  /** The workflow's one input object: ids and settings only, since histories are readable in the Temporal UI. */
  input: (request: Request, settings: StartSettings) => Parameters<W>[0];
  /**
   * REJECT_DUPLICATE: the workflow runs once, and a start after it ended is a no-op (an outbox row dispatched twice).
   * ALLOW_DUPLICATE: a start after it ended runs it again.
   */
  idReuse: WorkflowIdReusePolicy;
  searchAttributes: (request: Request) => SearchAttributePair[];
  /** Signal-with-start: a running workflow gets this signal instead of a second run. */
  signal?: SignalDefinition<[]>;
  /**
   * The key of the request's outbox row, when several rows lead to one workflow (each push fan-out batch signals the
   * workspace's one push workflow). Defaults to the workflow id.
   */
  outboxKey?: (request: Request) => string;
}

const registered = <Request, W extends Workflow>(entry: RegisteredWorkflow<Request, W>) => entry;

const CASCADES: Record<DriveCascadeKind, typeof trashCascadeWorkflow> = {
  trash: trashCascadeWorkflow,
  restore: restoreCascadeWorkflow,
  delete: deleteCascadeWorkflow,
};

/** Started through the transactional outbox, after the transaction that asks for them commits. */
const OUTBOX_WORKFLOWS = {
  driveCascade: registered({
    workflow: (request: DriveCascadeStart) => CASCADES[request.kind],
    id: (request) => driveCascadeWorkflowId(request.kind, request.rootUuid, request.operationUuid),
    input: (request) => ({
      operationUuid: request.operationUuid,
      rootUuid: request.rootUuid,
      workspaceUuid: request.workspaceUuid,
    }),
    idReuse: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    searchAttributes: (request) => ownedBy(request.workspaceUuid, request.rootUuid),
  }),
  documentPurge: registered({
    workflow: (_: { documentUuid: string; workspaceUuid: string }) => documentPurgeWorkflow,
    id: (request) => documentPurgeWorkflowId(request.documentUuid),
    input: (request) => ({ documentUuid: request.documentUuid }),
    // A purge that ended (the document was restored, or purged) may be scheduled again by a later trash.
    idReuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    searchAttributes: (request) => ownedBy(request.workspaceUuid, request.documentUuid),
    signal: documentTrashChangedSignal,
  }),
  webhookDelivery: registered({
    workflow: (_: WebhookDeliveryStart) => webhookDeliveryWorkflow,
    id: (request) => webhookDeliveryWorkflowId(request.destinationUuid, request.eventUuid, request.round),
    // Ids only: the history shows which destination, event and mailbox, never the message.
    input: (request) => ({
      destinationUuid: request.destinationUuid,
      eventUuid: request.eventUuid,
      localAttempts: true,
      ...(request.round ? { round: request.round } : {}),
      ...(request.maxAttempts ? { maxAttempts: request.maxAttempts } : {}),
    }),
    idReuse: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    searchAttributes: (request) => [
      ...ownedBy(request.workspaceUuid, request.eventUuid),
      { key: FOLIO_WEBHOOK_DESTINATION, value: request.destinationUuid },
      { key: FOLIO_WEBHOOK_EVENT, value: `whevt_${request.eventUuid}` },
      ...(request.mailboxUuid ? [{ key: FOLIO_MAILBOX, value: request.mailboxUuid }] : []),
      { key: FOLIO_WEBHOOK_OUTCOME, value: 'pending' },
    ],
  }),
  thumbnail: registered({
    workflow: (_: ThumbnailStart) => thumbnailWorkflow,
    id: (request) => thumbnailWorkflowId(request.fileUuid, request.versionUuid),
    input: (request) => ({
      workspaceUuid: request.workspaceUuid,
      fileUuid: request.fileUuid,
      versionUuid: request.versionUuid,
    }),
    // One that ended may run again (a request that finds no thumbnail row after it ended): the render stops at a row.
    idReuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    searchAttributes: (request) => ownedBy(request.workspaceUuid, request.fileUuid),
  }),
  // Written by the drive_changes trigger (db/migrations/015_drive_push.ts), one row per transaction and workspace.
  drivePush: registered({
    workflow: (_: { workspaceUuid: string; batch: string }) => drivePushWorkflow,
    id: (request) => drivePushWorkflowId(request.workspaceUuid),
    input: (request, settings) => ({
      workspaceUuid: request.workspaceUuid,
      windowMs: settings.push.coalesceWindowMs,
      idleMs: settings.push.idleMs,
    }),
    idReuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    searchAttributes: (request) => ownedBy(request.workspaceUuid, request.workspaceUuid),
    signal: drivePushChangesSignal,
    outboxKey: (request) => `${drivePushWorkflowId(request.workspaceUuid)}:${request.batch}`,
  }),
};

/** Started directly, outside any transaction: an upload's lifecycle exists before anything is staged. */
export const DIRECT_WORKFLOWS = {
  uploadLifecycle: registered({
    workflow: (_: { workspaceUuid: string; fileUuid: string }) => uploadLifecycleWorkflow,
    id: (request) => uploadWorkflowId(request.fileUuid),
    input: (request, settings) => ({
      workspaceUuid: request.workspaceUuid,
      fileUuid: request.fileUuid,
      expiresInMs: settings.uploadExpiryMs,
    }),
    idReuse: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    searchAttributes: (request) => ownedBy(request.workspaceUuid, request.fileUuid),
  }),
  replaceLifecycle: registered({
    workflow: (_: { workspaceUuid: string; fileUuid: string; versionUuid: string }) =>
      replaceLifecycleWorkflow,
    id: (request) => replaceWorkflowId(request.versionUuid),
    input: (request, settings) => ({
      workspaceUuid: request.workspaceUuid,
      fileUuid: request.fileUuid,
      versionUuid: request.versionUuid,
      expiresInMs: settings.uploadExpiryMs,
      retentionMs: settings.fileVersionRetentionMs,
    }),
    idReuse: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    searchAttributes: (request) => ownedBy(request.workspaceUuid, request.fileUuid),
  }),
  // `folio master-key rotate`: one rotation per target key; a second while one runs finds it.
  masterKeyRotation: registered({
    workflow: (_: { keyId: number; tables: string[]; pageSize: number }) => masterKeyRotationWorkflow,
    id: (request) => masterKeyRotationWorkflowId(request.keyId),
    input: (request) => ({ keyId: request.keyId, tables: request.tables, pageSize: request.pageSize }),
    idReuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    searchAttributes: () => [],
  }),
};

type OutboxWorkflows = typeof OUTBOX_WORKFLOWS;
export type DirectWorkflows = typeof DIRECT_WORKFLOWS;
type RequestOf<Entry> = Entry extends RegisteredWorkflow<infer Request, Workflow> ? Request : never;

/** What an outbox row asks for: the entry's name and its request (ids only, like every workflow input). */
export type OutboxRequest = {
  [Name in keyof OutboxWorkflows]: { type: Name } & RequestOf<OutboxWorkflows[Name]>;
}[keyof OutboxWorkflows];
export type DirectRequest<Name extends keyof DirectWorkflows> = RequestOf<DirectWorkflows[Name]>;

/** The registry entry of an outbox row, typed loosely: the row's type names it. */
export const outboxEntry = (request: OutboxRequest) =>
  OUTBOX_WORKFLOWS[request.type] as RegisteredWorkflow<OutboxRequest>;

/** The key of an outbox row: its workflow's id, unless the entry says otherwise. */
export function outboxWorkflowId(request: OutboxRequest): string {
  const entry = outboxEntry(request);
  return (entry.outboxKey ?? entry.id)(request);
}
