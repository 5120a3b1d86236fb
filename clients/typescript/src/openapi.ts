// Generated from openapi/folio.yaml by clients/typescript/scripts/generate-types.ts (openapi-typescript): do not edit.
// Regenerate with `npm run generate:client-types`; src/types.ts names the types the client uses.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Liveness of the API process, for a load balancer or an orchestrator's probe. Public, no token; it answers while the process serves requests, whatever its dependencies say.
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness (PostgreSQL, Temporal and object storage answer within 2 seconds)
         * @description Readiness, for routing traffic to this process. Public, no token. Ready when PostgreSQL, Temporal and object storage each answer within 2 seconds and the process is not shutting down.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document, as JSON
         * @description This OpenAPI document as JSON, for client generators and linters. Public, no token. Its `servers` names the deployment's public URL (FOLIO_PUBLIC_URL).
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/api": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The HTML reference page rendered from this document
         * @description This reference: a page that loads Redoc's standalone bundle from this API (GET /docs/api/redoc.standalone.js), which renders /openapi.json with a sidebar, search and the examples. Public, no token. Nothing is loaded from another origin (its Content-Security-Policy allows only this one). docs/api-reference.md.
         */
        get: operations["getApiReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Redirect to this reference
         * @description A short address for the reference, /docs (or /docs/), that redirects to /docs/api. Public, no token.
         */
        get: operations["redirectToApiReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/api/redoc.standalone.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The renderer of the reference page (Redoc's standalone bundle)
         * @description The JavaScript that renders the reference page: the standalone bundle of the `redoc` npm package, served from the installed package so the page needs no CDN (less one address in it, an image on Redocly's CDN). Public, no token.
         */
        get: operations["getApiReferenceBundle"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a folder's live children (the caller's Drive root without folder_uuid)
         * @description List a folder's live children (the caller's Drive root without folder_uuid). Answers 200: the list envelope of the folder's live children. Needs a bearer token with the `drive.read` scope.
         *     Folio decision: Each user has their own Drive root; items shared with the caller are not listed there but reached by uuid, by listing a shared folder, and through the changes feed. An empty or repeated folder_uuid lists the root. docs/drive.md § Items and names.
         */
        get: operations["listFiles"];
        put?: never;
        /**
         * Simple upload (the server encrypts); the whole file is buffered, 100 MB cap
         * @description Simple upload (the server encrypts); the whole file is buffered, 100 MB cap. Answers 201: the created file. Needs a bearer token with the `drive.create` scope.
         *     Folio decision: The created file's upload_status (spec: "not shown") is `completed`: it is downloadable at once. A body that is not JSON or whose data is not standard base64 is 400 invalid_body; a large body waits for one of the process's large-upload slots or is 503 too_many_uploads with Retry-After. docs/drive-encryption.md § 5.
         */
        post: operations["uploadFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/trash": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every trashed folder and file the caller can see, flat across the workspace
         * @description Every trashed folder and file the caller can see, flat across the workspace. Answers 200: the list envelope without folder_uuid. Needs a bearer token with the `drive.read` scope.
         */
        get: operations["listDriveTrash"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/files/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        /**
         * Read a file
         * @description Read a file. Answers 200: the file; 304: if-None-Match named the item's current ETag (or was `*`); no body. Needs a bearer token with the `drive.read` scope.
         *     Folio decision: A file still uploading is found here with upload_status `uploading` (lists and the feed withhold it). docs/drive.md.
         */
        get: operations["getFile"];
        put?: never;
        /**
         * Rename, move, trash or restore a file
         * @description Rename, move, trash or restore a file. Answers 200: the updated file. Needs a bearer token with the `drive.update` scope (trashed true also needs drive.delete).
         *     Folio decision: Several keys in one request are one change (one version, one feed entry), all or nothing. Renaming or moving an item in the trash is 403 not_authorized unless the same request restores it; a restore whose folder is still in the trash brings the item back at its owner's root. docs/drive-trash.md § Decisions.
         */
        post: operations["updateFile"];
        /**
         * Delete a file permanently
         * @description Delete a file permanently. Answers 204: deleted; empty body. Needs a bearer token with the `drive.delete` scope.
         */
        delete: operations["deleteFile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/files/{uuid}/trash": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a file to the trash
         * @description Move a file to the trash. Answers 200: the file, trashed. Needs a bearer token with the `drive.delete` scope.
         *     Folio decision: Trashing what is already in the trash changes nothing and answers 200 with the item. docs/drive-trash.md.
         */
        post: operations["trashFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/files/{uuid}/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        /**
         * Simple download (the server decrypts), as base64 in JSON
         * @description Simple download (the server decrypts), as base64 in JSON. Answers 200: the download response. Needs a bearer token with the `drive.read` scope.
         *     Folio decision: The JSON is streamed with a known Content-Length; a chunk that fails authentication cuts the body short. docs/drive-encryption.md § 5.
         */
        get: operations["downloadFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/files/{uuid}/download_init": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        /**
         * Chunked download init (the client decrypts)
         * @description Chunked download init (the client decrypts). Answers 200: the download init fields. Needs a bearer token with the `drive.read` scope.
         */
        get: operations["initChunkedDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/files/{uuid}/replace": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start replacing a file's contents (one replacement in flight per file)
         * @description Start replacing a file's contents (one replacement in flight per file). Answers 201: the replace initiate fields. Needs a bearer token with the `drive.update` scope.
         *     Folio decision: The initiate answers 201 (a staged version is created). A trashed file may be replaced. docs/drive-encryption.md § 6.
         */
        post: operations["initReplace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/files/{uuid}/replace/part_urls": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Presigned PUT URLs for parts of the staged version
         * @description Presigned PUT URLs for parts of the staged version. Answers 200: the part URLs. Needs a bearer token with the `drive.update` scope.
         */
        post: operations["getReplacePartUrls"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/files/{uuid}/replace/complete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Promote the staged version (ctag bumps)
         * @description Promote the staged version (ctag bumps). Answers 200: the updated file. Needs a bearer token with the `drive.update` scope.
         *     Folio decision: Extension: an optional content_hash, verified against the stored plaintext (422 content_hash_mismatch, the file unchanged; 422 invalid with field content_hash when malformed); without one the new version's content_hash is null. docs/extensions.md § Content hash.
         */
        post: operations["completeReplace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/files/{uuid}/replace/abort": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Discard the staged version
         * @description Discard the staged version. Answers 200: the file, unchanged. Needs a bearer token with the `drive.update` scope.
         *     Folio decision: Response body (spec: "not shown"): 200 with the drive_file as it stands, with its old content. docs/drive-encryption.md § 6.
         */
        post: operations["abortReplace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a chunked upload of a new file
         * @description Start a chunked upload of a new file. Answers 201: the upload initiate fields. Needs a bearer token with the `drive.create` scope.
         *     Folio decision: Answers 201; the file exists at once with upload_status `uploading`, holds its name, and its bytes are reserved in the storage pool. plaintext_size_bytes is 0 to 1 TiB. docs/drive-encryption.md § 3.
         */
        post: operations["initUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/uploads/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file_uuid an upload initiate answered. */
                uuid: components["parameters"]["UploadUuid"];
            };
            cookie?: never;
        };
        /**
         * An upload in progress, with the parts the store holds (to resume it)
         * @description An upload in progress, with the parts the store holds (to resume it). Answers 200: the upload session. Needs a bearer token with the `drive.create` scope. Folio's own extension to the spec (docs/extensions.md).
         *     Folio extension: not in the spec (docs/extensions.md).
         *     Folio decision: Only the uploader's own chunked upload: an unknown or malformed id, another person's upload or a simple upload is 404 not_found; a completed one is 422 invalid_upload_status. parts is what the store holds (S3 ListParts), in part-number order, each ETag without quotes. docs/extensions.md § Upload session status.
         */
        get: operations["getUploadStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/uploads/{uuid}/part_urls": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file_uuid an upload initiate answered. */
                uuid: components["parameters"]["UploadUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Presigned PUT URLs for parts of an upload
         * @description Presigned PUT URLs for parts of an upload. Answers 200: the part URLs. Needs a bearer token with the `drive.create` scope.
         *     Folio decision: Response shape (spec: "not shown"): `{object: list, part_urls: [{part_number, url, expires_at}]}`, sorted, duplicates removed; at most 1,000 part numbers per request; a URL is valid for 1 hour. docs/drive-encryption.md § 3.
         */
        post: operations["getUploadPartUrls"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/uploads/{uuid}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file_uuid an upload initiate answered. */
                uuid: components["parameters"]["UploadUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete an upload; the file becomes downloadable
         * @description Complete an upload; the file becomes downloadable. Answers 200: the completed file. Needs a bearer token with the `drive.create` scope.
         *     Folio decision: Response body (spec: "not shown"): 200 with the drive_file, upload_status `completed`. Completing an already completed upload answers 200 with the file again. Parts missing or differing from storage: 422 invalid_parts with part_numbers. docs/drive-encryption.md § 3. Extension: an optional content_hash, verified against the stored plaintext (422 content_hash_mismatch, nothing committed; 422 invalid with field content_hash when malformed); docs/extensions.md § Content hash.
         */
        post: operations["completeUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/uploads/{uuid}/abort": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file_uuid an upload initiate answered. */
                uuid: components["parameters"]["UploadUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an upload and discard its parts
         * @description Cancel an upload and discard its parts. Answers 204: aborted; empty body. Needs a bearer token with the `drive.create` scope.
         *     Folio decision: Response body (spec: "not shown"): 204, empty. Aborting a completed upload is 422 invalid_upload_status. docs/drive-encryption.md § 3.
         */
        post: operations["abortUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/folders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a folder
         * @description Create a folder. Answers 201: the created folder. Needs a bearer token with the `drive.create` scope.
         *     Folio decision: Names are unique among live siblings without regard to case or Unicode normalisation (stored as given); colors are answered upper-case. docs/drive.md.
         */
        post: operations["createFolder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/folders/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        /**
         * Read a folder
         * @description Read a folder. Answers 200: the folder; 304: if-None-Match named the item's current ETag (or was `*`); no body. Needs a bearer token with the `drive.read` scope.
         */
        get: operations["getFolder"];
        put?: never;
        /**
         * Rename, move, recolor, trash or restore a folder
         * @description Rename, move, recolor, trash or restore a folder. Answers 200: the updated folder. Needs a bearer token with the `drive.update` scope (trashed true also needs drive.delete).
         *     Folio decision: Several keys in one request are one change; a move never raises a role (403 not_authorized). docs/drive-trash.md, docs/drive-sharing.md § Moves and roles.
         */
        post: operations["updateFolder"];
        /**
         * Delete a folder and its whole subtree permanently
         * @description Delete a folder and its whole subtree permanently. Answers 204: deleted; empty body. Needs a bearer token with the `drive.delete` scope.
         */
        delete: operations["deleteFolder"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/folders/{uuid}/trash": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a folder and every descendant to the trash
         * @description Move a folder and every descendant to the trash. Answers 200: the folder, trashed. Needs a bearer token with the `drive.delete` scope.
         *     Folio decision: Response body (spec: "not shown"): 200 with the drive_folder as it now stands (trashed true, version +1). docs/drive-trash.md § Decisions.
         */
        post: operations["trashFolder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/files/{uuid}/sharing": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        /**
         * Sharing settings of a file (viewer role or higher)
         * @description Sharing settings of a file (viewer role or higher). Answers 200: the sharing settings. Needs a bearer token with the `drive.read` scope.
         */
        get: operations["getFileSharing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/folders/{uuid}/sharing": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        /**
         * Sharing settings of a folder (viewer role or higher)
         * @description Sharing settings of a folder (viewer role or higher). Answers 200: the sharing settings. Needs a bearer token with the `drive.read` scope.
         */
        get: operations["getFolderSharing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/files/{uuid}/thumbnail": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        /**
         * A file's thumbnail
         * @description A file's thumbnail. Answers 200: the image bytes; 202: eligible but not yet rendered; 204: the file has no preview; 304: if-None-Match matched the ETag. Needs a bearer token with the `drive.read` scope.
         *     Folio decision: A request that finds no thumbnail starts its render and answers 202 (Retry-After 1); 202 and 204 carry Cache-Control no-store. The ETag is strong; If-None-Match `*` or any listed tag matches. docs/drive-thumbnails.md § 8.
         */
        get: operations["getThumbnail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/thumbnails/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Up to 25 thumbnails at once
         * @description Up to 25 thumbnails at once. Answers 200: each item with its own status. Needs a bearer token with the `drive.read` scope.
         */
        post: operations["getThumbnailBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The changes feed
         * @description The changes feed. Answers 200: a changes page. Needs a bearer token with the `drive.read` scope.
         *     Folio decision: The sync token is opaque, sealed by the server; a token it cannot read is 410 sync_token_invalid. A limit outside 1..1000 is 400 invalid_body. docs/drive-sync.md § The sync token, § Limits and bad input.
         */
        get: operations["listChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/changes/wait": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Long-poll whether the changes feed has something after a sync token (the token is not advanced)
         * @description Long-poll whether the changes feed has something after a sync token (the token is not advanced). Answers 200: whether the feed has a change after the token. Needs a bearer token with the `drive.read` scope. Folio's own extension to the spec (docs/extensions.md).
         *     Folio extension: not in the spec (docs/extensions.md).
         *     Folio decision: Answers only whether to call the feed (as Dropbox's list_folder/longpoll): `{changes: true}` as soon as a change the caller can see is after the token (at once if one already is), `{changes: false}` at the timeout. At most 3 long-polls per person per API process; the 4th is 429 too_many_waits at once. docs/extensions.md § Drive changes extras.
         */
        get: operations["waitForChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/push_subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register a device (again with the same client, container and domain updates it in place)
         * @description Register a device (again with the same client, container and domain updates it in place). Answers 201: the subscription. Needs a bearer token with the `drive.read` scope.
         *     Folio decision: Push clients are made by the operator (`folio push-client create`); a field that does not fit is 422 invalid with `field`. The push payload (spec: "not shown") is in docs/drive-push.md § The payload.
         */
        post: operations["createPushSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drive/push_subscriptions/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unregister a device (idempotent)
         * @description Unregister a device (idempotent). Answers 200: the subscription with unregistered_at set. Needs a bearer token with the `drive.read` scope.
         */
        delete: operations["deletePushSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/s/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The opaque token of the public link. */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        /**
         * A shared file's bytes, or a shared folder's listing (HTML, or JSON for Accept application/json)
         * @description A shared file's bytes, or a shared folder's listing (HTML, or JSON for Accept application/json). Public: no token.
         *     Folio decision: Anonymous and read-only. Every refusal (unknown token, removed link, trashed or deleted item, item not below the shared folder) is the same 404; past the per-address or per-link rate, 429 too_many_requests with Retry-After. Refusals are a plain page for a browser and the JSON error body otherwise. docs/drive-sharing.md § Public links.
         */
        get: operations["openPublicLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * The headers of GET /s/{token}, without opening storage
         * @description The headers of GET /s/{token}, without opening storage. Public: no token.
         *     Folio decision: Anonymous and read-only. Every refusal (unknown token, removed link, trashed or deleted item, item not below the shared folder) is the same 404; past the per-address or per-link rate, 429 too_many_requests with Retry-After. Refusals are a plain page for a browser and the JSON error body otherwise. docs/drive-sharing.md § Public links.
         */
        head: operations["headPublicLink"];
        patch?: never;
        trace?: never;
    };
    "/s/{token}/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The opaque token of the public link. */
                token: components["parameters"]["LinkToken"];
                /** @description An item anywhere below the shared folder. */
                uuid: string;
            };
            cookie?: never;
        };
        /**
         * A file or folder anywhere below a shared folder
         * @description A file or folder anywhere below a shared folder. Public: no token.
         *     Folio decision: Anonymous and read-only. Every refusal (unknown token, removed link, trashed or deleted item, item not below the shared folder) is the same 404; past the per-address or per-link rate, 429 too_many_requests with Retry-After. Refusals are a plain page for a browser and the JSON error body otherwise. docs/drive-sharing.md § Public links.
         */
        get: operations["openPublicLinkItem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * The headers of GET /s/{token}/{uuid}
         * @description The headers of GET /s/{token}/{uuid}. Public: no token.
         *     Folio decision: Anonymous and read-only. Every refusal (unknown token, removed link, trashed or deleted item, item not below the shared folder) is the same 404; past the per-address or per-link rate, 429 too_many_requests with Retry-After. Refusals are a plain page for a browser and the JSON error body otherwise. docs/drive-sharing.md § Public links.
         */
        head: operations["headPublicLinkItem"];
        patch?: never;
        trace?: never;
    };
    "/v1/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Documents the caller owns or that are shared with them, newest first, Trash excluded
         * @description Documents the caller owns or that are shared with them, newest first, Trash excluded. Answers 200: a page of documents. Needs a bearer token with the `docs.read` scope.
         *     Folio decision: Newest first is created_at descending, ties by uuid. next_cursor is opaque, a string while has_more is true and null on the last page. A bad q, limit or cursor is 422 invalid_query, invalid_limit or invalid_cursor. docs/documents-api.md § Listing.
         */
        get: operations["listDocuments"];
        put?: never;
        /**
         * Create an empty document owned by the caller
         * @description Create an empty document owned by the caller. Answers 201: the created document. Needs a bearer token with the `docs.write` scope.
         *     Folio decision: Method (spec: "not shown"): POST /v1/documents, 201 document. docs/documents-api.md § Methods the spec leaves open.
         */
        post: operations["createDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/trash": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Documents in Trash, same shape and order
         * @description Documents in Trash, same shape and order. Answers 200: a page of trashed documents. Needs a bearer token with the `docs.read` scope.
         *     Folio decision: Newest first is created_at descending, ties by uuid. next_cursor is opaque, a string while has_more is true and null on the last page. A bad q, limit or cursor is 422 invalid_query, invalid_limit or invalid_cursor. docs/documents-api.md § Listing.
         */
        get: operations["listTrashedDocuments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        /**
         * Read a document
         * @description Read a document. Answers 200: the document. Needs a bearer token with the `docs.read` scope.
         */
        get: operations["getDocument"];
        put?: never;
        /**
         * Rename (editor), trash or restore (owner or manager)
         * @description Rename (editor), trash or restore (owner or manager). Answers 200: the updated document. Needs a bearer token with the `docs.write` scope.
         *     Folio decision: Response body (spec: "not shown"): 200 with the document as it stands after the update. docs/documents-api.md § Methods the spec leaves open.
         */
        post: operations["updateDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/trash": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a document to Trash (already trashed changes nothing)
         * @description Move a document to Trash (already trashed changes nothing). Answers 200: the document, trashed. Needs a bearer token with the `docs.write` scope.
         *     Folio decision: Method (spec: "not shown"): POST; 200 with the document, as for update. docs/documents-api.md.
         */
        post: operations["trashDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/content": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        /**
         * The document as markdown with its open threads
         * @description The document as markdown with its open threads. Answers 200: the content. Needs a bearer token with the `docs.read` scope.
         */
        get: operations["getDocumentContent"];
        put?: never;
        /**
         * Edit with quoted operations (one revision, or nothing changes)
         * @description Edit with quoted operations (one revision, or nothing changes). Answers 200: the content after the edit. Needs a bearer token with the `docs.write` scope.
         *     Folio decision: A retry with a batch_id already applied answers the stored answer again; the same batch_id used as suggestions is 422 batch_id_reused. A document's markdown is capped (413 document_too_large with max_bytes), and so is the number of threads (422 too_many_threads). Bodies up to 16 MB. docs/documents-api.md.
         */
        post: operations["editDocumentContent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/export": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        /**
         * The document as a markdown or HTML file
         * @description The document as a markdown or HTML file. Answers 200: the file. Needs a bearer token with the `docs.read` scope. Folio's own extension to the spec (docs/extensions.md).
         *     Folio extension: not in the spec (docs/extensions.md).
         *     Folio decision: Any role that may read the content. suggestions=show is exactly the content read's markdown; accept and reject apply every open suggestion to a copy (the document does not change); comments are never exported. HTML passes no raw HTML through. format=docx is not built (422 invalid_format). docs/extensions.md § Export.
         */
        get: operations["exportDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        /**
         * The document's revisions, newest first
         * @description The document's revisions, newest first. Answers 200: a page of revisions. Needs a bearer token with the `docs.read` scope (editor role). Folio's own extension to the spec (docs/extensions.md).
         *     Folio extension: not in the spec (docs/extensions.md).
         *     Folio decision: Reading history and restoring need the editor role (403 forbidden otherwise): history shows text deleted before someone was shared the document. A document the caller cannot see is 404 not_found. docs/extensions.md § Documents history.
         */
        get: operations["listDocumentRevisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/revisions/{revision}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                /**
                 * @description A revision number; anything else is 422 invalid_revision.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                revision: components["parameters"]["RevisionNumber"];
            };
            cookie?: never;
        };
        /**
         * One revision, with the document's markdown as it last stood at it
         * @description One revision, with the document's markdown as it last stood at it. Answers 200: the revision and its markdown (CriticMarkup of the suggestions pending then included). Needs a bearer token with the `docs.read` scope (editor role). Folio's own extension to the spec (docs/extensions.md).
         *     Folio extension: not in the spec (docs/extensions.md).
         *     Folio decision: Reading history and restoring need the editor role (403 forbidden otherwise): history shows text deleted before someone was shared the document. A document the caller cannot see is 404 not_found. docs/extensions.md § Documents history.
         */
        get: operations["getDocumentRevision"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/revisions/{revision}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                /**
                 * @description A revision number; anything else is 422 invalid_revision.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                revision: components["parameters"]["RevisionNumber"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a new revision whose text is that revision's (one set_document edit)
         * @description Make a new revision whose text is that revision's (one set_document edit). Answers 200: the content after the restore. Needs a bearer token with the `docs.write` scope (editor role). Folio's own extension to the spec (docs/extensions.md).
         *     Folio extension: not in the spec (docs/extensions.md).
         *     Folio decision: The text restored is the revision's without the suggestions pending at it (as if each were rejected), written as one set_document edit: one new revision (cause restore, restored_from), comments on unchanged blocks kept, others detached. Restoring the text the document already has adds no revision. Editor role. docs/extensions.md § Restore.
         */
        post: operations["restoreDocumentRevision"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/events": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        /**
         * The live channel (Server-Sent Events of new revisions and thread changes)
         * @description The live channel (Server-Sent Events of new revisions and thread changes). Answers 200: an event stream. Needs a bearer token with the `docs.read` scope.
         *     Folio decision: Events carry numbers only (`revision` with the revision, `threads`); a client reads the content again. One person may hold a bounded number of streams per process: past it, 429 too_many_streams with Retry-After. docs/documents-api.md § Live.
         */
        get: operations["streamDocumentEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/suggestions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Suggest replace, insert and delete operations; each becomes its own suggestion
         * @description Suggest replace, insert and delete operations; each becomes its own suggestion. Answers 201: the content plus the new suggestions' uuids, one per operation, in order. Needs a bearer token with the `docs.comment` scope.
         */
        post: operations["createSuggestions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/suggestions/{thread}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept a suggestion (editor)
         * @description Accept a suggestion (editor). Answers 200: the content after the decision. Needs a bearer token with the `docs.write` scope.
         *     Folio decision: Method (spec: "not shown"): POST, 200 document_content. docs/documents-api.md.
         */
        post: operations["acceptSuggestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/suggestions/{thread}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a suggestion (editor)
         * @description Reject a suggestion (editor). Answers 200: the content after the decision. Needs a bearer token with the `docs.write` scope.
         *     Folio decision: Method (spec: "not shown"): POST, 200 document_content. docs/documents-api.md.
         */
        post: operations["rejectSuggestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/suggestions/{thread}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a suggestion (its author, manager or owner)
         * @description Delete a suggestion (its author, manager or owner). Answers 200: the content after the decision. Needs a bearer token with the `docs.comment` scope.
         *     Folio decision: Response (spec: "not shown"): 200 document_content, since its marks leave the markdown. docs/documents-api.md.
         */
        delete: operations["deleteSuggestion"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Comment on a quote, or on the whole document without `on`
         * @description Comment on a quote, or on the whole document without `on`. Answers 201: the new thread. Needs a bearer token with the `docs.comment` scope.
         *     Folio decision: Answer (spec: "thread"): 201 with the thread. A malformed quote is 422 invalid_operation without an index. docs/documents-api.md.
         */
        post: operations["createComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/comments/{thread}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resolve or reopen a comment
         * @description Resolve or reopen a comment. Answers 200: the thread. Needs a bearer token with the `docs.comment` scope.
         *     Folio decision: Method (spec: "not shown"): POST with status, 200 thread. docs/documents-api.md.
         */
        post: operations["setCommentStatus"];
        /**
         * Delete a comment with its replies (own, or any if manager or owner)
         * @description Delete a comment with its replies (own, or any if manager or owner). Answers 204: deleted; empty body. Needs a bearer token with the `docs.comment` scope.
         */
        delete: operations["deleteComment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/comments/{thread}/replies": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reply to a comment
         * @description Reply to a comment. Answers 201: the thread with the reply. Needs a bearer token with the `docs.comment` scope.
         *     Folio decision: Method (spec: "not shown"): POST, 201 thread (a message was created). docs/documents-api.md.
         */
        post: operations["replyToComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/comments/{thread}/messages/{message}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
                message: components["parameters"]["MessageUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit a message you wrote
         * @description Edit a message you wrote. Answers 200: the thread. Needs a bearer token with the `docs.comment` scope.
         *     Folio decision: Method (spec: "not shown"): POST, 200 thread; editing is for the message author only. docs/documents-api.md.
         */
        post: operations["editCommentMessage"];
        /**
         * Delete a message (its opening message deletes the comment)
         * @description Delete a message (its opening message deletes the comment). Answers 204: deleted; empty body. Needs a bearer token with the `docs.comment` scope.
         */
        delete: operations["deleteCommentMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/attachments": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload an attachment's raw bytes (type read from the bytes)
         * @description Upload an attachment's raw bytes (type read from the bytes). Answers 200: the same bytes were uploaded before; that attachment; 201: the new attachment. Needs a bearer token with the `docs.write` scope.
         *     Folio decision: The same bytes again answer 200 with the same attachment; the filename is the last path segment of what was sent. Attachment upload_status transitions (spec: "not shown"): docs/documents-api.md § Attachments.
         */
        post: operations["uploadAttachment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/attachments/{attachment}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                attachment: components["parameters"]["AttachmentUuid"];
            };
            cookie?: never;
        };
        /**
         * Read an attachment's metadata
         * @description Read an attachment's metadata. Answers 200: the attachment. Needs a bearer token with the `docs.read` scope.
         */
        get: operations["getAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{uuid}/attachments/{attachment}/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                attachment: components["parameters"]["AttachmentUuid"];
            };
            cookie?: never;
        };
        /**
         * An attachment's bytes
         * @description An attachment's bytes. Answers 200: raw bytes; Content-Type is the attachment's type, Content-Disposition carries its name. Needs a bearer token with the `docs.read` scope.
         */
        get: operations["downloadAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/emails/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description data.email_uuid of an email.received event. */
                uuid: string;
            };
            cookie?: never;
        };
        /**
         * Read an email (members of its mailbox only)
         * @description Read an email (members of its mailbox only). Answers 200: the email. Needs a bearer token with the `email.read` scope.
         *     Folio decision: Response shape (spec: "not shown"): the email object below. A non-member, a workspace admin included, gets 404 not_found as if it did not exist; attachment bytes are not served here. docs/webhooks.md § Reading the email.
         */
        get: operations["getEmail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's destinations
         * @description The workspace's destinations. Answers 200: the destinations. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         *     Folio decision: Management endpoints (spec: "not shown"; managed in the admin app): the admin app's operations for programs, on the same rules (the app's pages are rendered on the server and call none of them). A member who is not an admin, and an API key, get 403 forbidden; another workspace's destination is 404; bad input is 400 invalid_body with fields. docs/webhooks.md § Admin API.
         */
        get: operations["listWebhookDestinations"];
        put?: never;
        /**
         * Create a destination; its signing secret is shown this once
         * @description Create a destination; its signing secret is shown this once. Answers 201: the destination with signing_secret. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         *     Folio decision: Management endpoints (spec: "not shown"; managed in the admin app): the admin app's operations for programs, on the same rules (the app's pages are rendered on the server and call none of them). A member who is not an admin, and an API key, get 403 forbidden; another workspace's destination is 404; bad input is 400 invalid_body with fields. docs/webhooks.md § Admin API.
         */
        post: operations["createWebhookDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        /**
         * A destination
         * @description A destination. Answers 200: the destination. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         */
        get: operations["getWebhookDestination"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change url, description or mailboxes (mailboxes replaces the list)
         * @description Change url, description or mailboxes (mailboxes replaces the list). Answers 200: the destination. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         */
        patch: operations["updateWebhookDestination"];
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause an active destination (events while paused are not queued)
         * @description Pause an active destination (events while paused are not queued). Answers 200: the destination. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         */
        post: operations["pauseWebhookDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused destination
         * @description Resume a paused destination. Answers 200: the destination. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         */
        post: operations["resumeWebhookDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn a disabled destination back on (missed events are not replayed)
         * @description Turn a disabled destination back on (missed events are not replayed). Answers 200: the destination. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         */
        post: operations["enableWebhookDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        /**
         * Reveal the signing secret (and the previous one while it overlaps); audited
         * @description Reveal the signing secret (and the previous one while it overlaps); audited. Answers 200: the secrets. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         */
        get: operations["revealWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret; the previous one keeps signing for an overlap
         * @description Rotate the signing secret; the previous one keeps signing for an overlap. Answers 200: the destination with its new signing_secret. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        /**
         * The last 7 UTC days, oldest first, one row per day
         * @description The last 7 UTC days, oldest first, one row per day. Answers 200: daily statistics. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         */
        get: operations["getWebhookStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}/attempts": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        /**
         * Delivery attempts, newest first
         * @description Delivery attempts, newest first. Answers 200: a page of attempts. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         */
        get: operations["listWebhookAttempts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        /**
         * Deliveries (those in flight when no state is given)
         * @description Deliveries (those in flight when no state is given). Answers 200: the deliveries. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}/deliveries/{event}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
                /** @description The event id, whevt_<uuid>. */
                event: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a waiting delivery's next attempt now
         * @description Send a waiting delivery's next attempt now. Answers 202: the delivery; its attempt is on its way. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         *     Folio decision: 202 with the delivery; 409 invalid_state unless it is waiting. docs/webhooks-on-call.md.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}/deliveries/{event}/terminate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
                /** @description The event id, whevt_<uuid>. */
                event: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a delivery in flight, with a reason
         * @description Stop a delivery in flight, with a reason. Answers 200: the delivery, terminated_by `user:<uuid>`. Needs a bearer token with the `webhooks.manage` scope (workspace admin).
         */
        post: operations["terminateWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed webhook.test event to an active destination, once
         * @description Send a signed webhook.test event to an active destination, once. Answers 202: the delivery of the new webhook.test event. Needs a bearer token with the `webhooks.manage` scope (workspace admin). Folio's own extension to the spec (docs/extensions.md).
         *     Folio extension: not in the spec (docs/extensions.md).
         *     Folio decision: A webhook.test event (`data: {}`) is sent only on request, once (no retries), recorded as a delivery of round 0 with mailbox_uuid null, and never moves consecutive_failures. Only to an active destination (409 invalid_state when paused or disabled). docs/extensions.md § Webhooks.
         */
        post: operations["sendWebhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{uuid}/deliveries/{event}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
                /**
                 * @description The event id, whevt_<uuid> (or a bare uuid).
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                event: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one past event to this destination again, as a new round of five attempts
         * @description Send one past event to this destination again, as a new round of five attempts. Answers 202: the delivery of the new round. Needs a bearer token with the `webhooks.manage` scope (workspace admin). Folio's own extension to the spec (docs/extensions.md).
         *     Folio extension: not in the spec (docs/extensions.md).
         *     Folio decision: A new delivery of the same event id (same body bytes, new signatures and delivery ids), attempts numbered from 1, as round 1, 2, …; it never moves the auto-disable counter. Only an event the destination was sent in the first place: missed events are never replayed (404 not_found). 409 invalid_state while the destination is not active or a delivery of that event to it is in flight. docs/extensions.md § Webhooks.
         */
        post: operations["resendWebhookEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Drive's error body: the code, and the fields its row names. */
        DriveError: {
            error: string;
            /** @description With storage_limit_exceeded. */
            pool_bytes?: number;
            /**
             * @description With missing_required_fields and invalid_body: the fields at fault.
             *     Folio decision: Error body fields other than error and pool_bytes (spec: "not shown"). docs/drive.md.
             */
            fields?: string[];
            /** @description With invalid: the field at fault. */
            field?: string;
            /** @description With invalid_parts: the parts at fault. With content_hash_mismatch (an extension): the first part that does not decrypt, when one does not. */
            part_numbers?: number[];
            /** @description With insufficient_scope: the scope needed. */
            scope?: string;
            /** @description With file_too_large: the limit. */
            max_bytes?: number;
            /**
             * @description With too_many_waits: the most long-polls one person may hold.
             *     Folio extension: not in the spec (docs/extensions.md).
             */
            max_waits?: number;
            /**
             * @description With precondition_failed: the item as it now stands.
             *     Folio extension: not in the spec (docs/extensions.md).
             */
            current?: components["schemas"]["DriveFile"] | components["schemas"]["DriveFolder"];
        };
        /** @description The error body of Documents, Email, the admin API and public links: the code, a description, and the fields its row names. */
        ApiError: {
            error: string;
            error_description: string;
            /** @description The index of the refused operation. */
            operation?: number;
            /**
             * @description With target_not_found and target_ambiguous.
             * @constant
             */
            retryable?: true;
            /** @description With target_ambiguous. */
            candidates?: {
                occurrence: number;
                snippet: string;
            }[];
            /**
             * @description With target_ambiguous, when more matches exist than candidates listed.
             * @constant
             */
            truncated?: true;
            /** @description With conflict: the document as it now is. */
            current?: components["schemas"]["DocumentContent"];
            /** @description With file_too_large and document_too_large. */
            max_bytes?: number;
            /** @description With too_many_threads. */
            max_threads?: number;
            /** @description With too_many_streams. */
            max_streams?: number;
            /** @description With insufficient_scope: the scope needed. */
            scope?: string;
            /** @description With invalid_body (admin API): the fields at fault. */
            fields?: string[];
            /** @description With invalid_url: which rule the URL breaks. */
            reason?: string;
            /** @description With unknown_mailboxes. */
            mailboxes?: string[];
        };
        Readiness: {
            /** @enum {unknown} */
            status: "ready" | "unavailable";
            checks: {
                /** @enum {unknown} */
                postgres: "ok" | "unavailable";
                /** @enum {unknown} */
                temporal: "ok" | "unavailable";
                /** @enum {unknown} */
                storage: "ok" | "unavailable";
            };
        };
        /** @description The process is shutting down; no dependency is checked. */
        ReadinessDraining: {
            /** @constant */
            status: "draining";
        };
        /** @description The owner object (and a thread's or message's author). */
        Person: {
            self: boolean;
            first_name: string | null;
            last_name: string | null;
            display_name: string | null;
        };
        /** @enum {unknown} */
        Role: "viewer" | "commenter" | "editor" | "manager" | "owner";
        DriveFile: {
            /** @constant */
            object: "drive_file";
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            folder_uuid: string | null;
            name: string;
            content_type: string;
            file_size_bytes: number;
            /** @enum {unknown} */
            upload_status: "uploading" | "completed";
            trashed: boolean;
            has_preview: boolean;
            version: number;
            ctag: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            my_role: components["schemas"]["Role"];
            shared: boolean;
            owner: components["schemas"]["Person"];
            /**
             * @description Dropbox's content_hash of the live version's plaintext, lower-case hex: computed for a simple upload, verified for a chunked complete that sent one; null while uploading, for a chunked complete without one, and for versions completed before Folio recorded hashes. docs/extensions.md § Content hash.
             *     Folio extension: not in the spec (docs/extensions.md).
             */
            content_hash: string | null;
        };
        DriveFolder: {
            /** @constant */
            object: "drive_folder";
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            parent_uuid: string | null;
            name: string;
            /** @description Folio decision: Stored and answered upper-case. docs/drive.md. */
            color: string | null;
            trashed: boolean;
            version: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            my_role: components["schemas"]["Role"];
            shared: boolean;
            owner: components["schemas"]["Person"];
        };
        DriveFileList: {
            /** @constant */
            object: "list";
            /** @constant */
            url: "/v1/drive/files";
            /** Format: uuid */
            folder_uuid: string | null;
            folders: components["schemas"]["DriveFolder"][];
            files: components["schemas"]["DriveFile"][];
        };
        DriveTrashList: {
            /** @constant */
            object: "list";
            /** @constant */
            url: "/v1/drive/trash";
            folders: components["schemas"]["DriveFolder"][];
            files: components["schemas"]["DriveFile"][];
        };
        DriveDownload: {
            /** Format: uuid */
            uuid: string;
            name: string;
            content_type: string;
            /** @description Plaintext bytes. */
            size: number;
            data: string;
        };
        /**
         * @description The per-file AES-256 key, standard base64 of its 32 bytes.
         *     Folio decision: Encoding of data_key and the chunk layout (spec: "not shown"): docs/drive-encryption.md § 1, § 2.
         */
        DataKey: string;
        DriveUploadInitiate: {
            /** Format: uuid */
            file_uuid: string;
            data_key: components["schemas"]["DataKey"];
            /** @description Folio decision: Bounds of chunk_size_bytes (spec: "not shown"): from 8 MiB up to 105 MiB for the largest file (1 TiB). docs/drive-encryption.md § 3. */
            chunk_size_bytes: number;
            chunk_count: number;
            storage_upload_id: string;
        };
        DriveReplaceInitiate: {
            /** Format: uuid */
            version_uuid: string;
            data_key: components["schemas"]["DataKey"];
            chunk_size_bytes: number;
            chunk_count: number;
            storage_upload_id: string;
        };
        DriveDownloadInit: {
            data_key: components["schemas"]["DataKey"];
            chunk_size_bytes: number;
            chunk_count: number;
            ciphertext_size_bytes: number;
            /** Format: uri */
            download_url: string;
            /**
             * Format: uuid
             * @description Folio decision: Beyond the spec's fields: the content version the key and URL are for. docs/drive-encryption.md § 4.
             */
            version_uuid: string;
        };
        /** @description Folio decision: Response shape of both part_urls operations (spec: "not shown"). docs/drive-encryption.md § 3. */
        DrivePartUrls: {
            /** @constant */
            object: "list";
            part_urls: {
                part_number: number;
                /** Format: uri */
                url: string;
                /** Format: date-time */
                expires_at: string;
            }[];
        };
        DriveAccess: {
            /** @constant */
            object: "drive_access";
            /** Format: uuid */
            uuid: string;
            /** @enum {unknown} */
            principal_type: "user" | "workspace";
            /** Format: uuid */
            principal_user_uuid: string | null;
            /** Format: uuid */
            principal_workspace_uuid: string | null;
            principal_email: string | null;
            /** @enum {unknown} */
            role: "viewer" | "commenter" | "editor" | "manager";
            /**
             * @description Folio decision: Grant status transitions (spec: "not shown"): docs/drive-sharing.md § Status transitions.
             * @enum {unknown}
             */
            status: "pending" | "accepted" | "revoked";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        DrivePublicLink: {
            /** @constant */
            object: "drive_public_link";
            /** Format: uuid */
            uuid: string;
            /** @enum {unknown} */
            resource_type: "file" | "folder";
            /** Format: uuid */
            resource_uuid: string;
            token: string;
            /** Format: uri */
            url: string;
            /**
             * @description Folio decision: Transition to failed (spec: "not shown"): docs/drive-sharing.md § Public links, Status.
             * @enum {unknown}
             */
            status: "pending" | "ready" | "failed";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        DriveSharing: {
            /** @constant */
            object: "drive_sharing";
            /** @enum {unknown} */
            resource_type: "file" | "folder";
            /** Format: uuid */
            resource_uuid: string;
            accesses: components["schemas"]["DriveAccess"][];
            public_link: components["schemas"]["DrivePublicLink"] | null;
        };
        DriveThumbnailBatch: {
            /** @constant */
            object: "list";
            thumbnails: ({
                uuid: string;
                /** @constant */
                status: "ready";
                data: string;
                /** @enum {unknown} */
                content_type: "image/jpeg" | "image/png";
                version: number;
            } | {
                uuid: string;
                /** @enum {unknown} */
                status: "generating" | "no_preview" | "not_found";
            })[];
        };
        DriveChange: {
            /** @enum {unknown} */
            type: "create" | "update";
            /** @constant */
            resource_type: "file";
            /** Format: uuid */
            uuid: string;
            resource: components["schemas"]["DriveFile"];
        } | {
            /** @enum {unknown} */
            type: "create" | "update";
            /** @constant */
            resource_type: "folder";
            /** Format: uuid */
            uuid: string;
            resource: components["schemas"]["DriveFolder"];
        } | {
            /** @constant */
            type: "delete";
            /** @enum {unknown} */
            resource_type: "file" | "folder";
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            parent_uuid: string | null;
        };
        DriveChangesPage: {
            /** @constant */
            object: "list";
            /** @constant */
            url: "/v1/drive/changes";
            /** Format: date-time */
            as_of: string;
            sync_token: string;
            has_more: boolean;
            changes: components["schemas"]["DriveChange"][];
        };
        /**
         * @description The answer of a changes long-poll.
         *     Folio extension: not in the spec (docs/extensions.md).
         */
        DriveChangesWait: {
            /** @description True when the feed has a change the caller can see after the token. */
            changes: boolean;
        };
        /**
         * @description A chunked upload in progress (an extension, docs/extensions.md § Upload session status).
         *     Folio extension: not in the spec (docs/extensions.md).
         */
        DriveUploadStatus: {
            /** @constant */
            object: "drive_upload";
            /** Format: uuid */
            file_uuid: string;
            /** @constant */
            upload_status: "uploading";
            chunk_size_bytes: number;
            chunk_count: number;
            storage_upload_id: string;
            /** @description What the store holds, in part-number order. */
            parts: {
                part_number: number;
                /** @description The part's ciphertext size. */
                size_bytes: number;
                /** @description Without quotes. */
                etag: string;
            }[];
            /**
             * Format: date-time
             * @description When the lifecycle discards the upload if it is not completed.
             */
            expires_at: string;
        };
        DrivePushSubscription: {
            /** @constant */
            object: "drive_push_subscription";
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            push_client_uuid: string;
            container_identifier: string;
            domain_identifier: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            unregistered_at: string | null;
        };
        /** @description Folio decision: What a folder link serves as JSON (beyond the spec). docs/drive-sharing.md § What GET /s/<token> serves. */
        DrivePublicFolder: {
            /** @constant */
            object: "drive_public_folder";
            /** Format: uuid */
            uuid: string;
            name: string;
            /** Format: uri */
            url: string;
            /** Format: uri */
            parent_url: string | null;
            folders: {
                /** Format: uuid */
                uuid: string;
                name: string;
                /** Format: uri */
                url: string;
                /** Format: date-time */
                updated_at: string;
            }[];
            files: {
                /** Format: uuid */
                uuid: string;
                name: string;
                content_type: string | null;
                size_bytes: number;
                /** Format: uri */
                url: string;
                /** Format: date-time */
                updated_at: string;
            }[];
            truncated: boolean;
        };
        Document: {
            /** @constant */
            object: "document";
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            workspace_uuid: string;
            title: string | null;
            /** Format: uri */
            url: string;
            my_role: components["schemas"]["Role"];
            /** @description Folio decision: True while any grant is pending or accepted. docs/documents-api.md § Roles and sharing. */
            shared: boolean;
            owner: components["schemas"]["Person"];
            /** Format: date-time */
            trashed_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        DocumentList: {
            /** @constant */
            object: "list";
            /** @enum {unknown} */
            url: "/v1/documents" | "/v1/documents/trash";
            has_more: boolean;
            data: components["schemas"]["Document"][];
            /** @description Folio decision: Opaque; null on the last page. docs/documents-api.md § Listing. */
            next_cursor: string | null;
        };
        Message: {
            /** Format: uuid */
            uuid: string;
            author: components["schemas"]["Person"];
            body: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            edited_at: string | null;
        };
        Thread: {
            /** Format: uuid */
            uuid: string;
            /** @enum {unknown} */
            kind: "comment" | "suggestion";
            /** @description A suggestion's ref in the markdown ({>>s<n><<}); null for a comment. */
            ref: string | null;
            /** @enum {unknown} */
            status: "open" | "resolved" | "closed";
            /** @enum {unknown} */
            placement: "attached" | "document" | "detached";
            quote: string | null;
            suggested_text: string | null;
            suggested_format: string | null;
            author: components["schemas"]["Person"];
            /** Format: date-time */
            created_at: string;
            messages: components["schemas"]["Message"][];
        };
        DocumentContent: {
            /** @constant */
            object: "document_content";
            /** Format: uuid */
            uuid: string;
            revision: number;
            markdown: string;
            threads: components["schemas"]["Thread"][];
        };
        DocumentContentWithSuggestions: {
            /** @constant */
            object: "document_content";
            /** Format: uuid */
            uuid: string;
            revision: number;
            markdown: string;
            threads: components["schemas"]["Thread"][];
            suggestions: string[];
        };
        /**
         * @description One revision of a document's history (an extension, docs/extensions.md § Documents history).
         *     Folio extension: not in the spec (docs/extensions.md).
         */
        DocumentRevision: {
            /** @constant */
            object: "document_revision";
            revision: number;
            /** Format: date-time */
            created_at: string;
            /** @description Null once the account is gone. */
            author: components["schemas"]["Person"] | null;
            /** @enum {unknown} */
            cause: "create" | "edit" | "suggest" | "accept" | "reject" | "remove_suggestion" | "restore";
            /** @description For cause restore: the revision whose text was restored. */
            restored_from: number | null;
            /** @description Top-level blocks the revision changed in place, added and removed (revision 1 against an empty document). */
            summary: {
                blocks_changed: number;
                blocks_added: number;
                blocks_removed: number;
            };
        };
        /**
         * @description A revision with the document it belongs to and the markdown at it.
         *     Folio extension: not in the spec (docs/extensions.md).
         */
        DocumentRevisionContent: {
            /** @constant */
            object: "document_revision";
            revision: number;
            /** Format: date-time */
            created_at: string;
            /** @description Null once the account is gone. */
            author: components["schemas"]["Person"] | null;
            /** @enum {unknown} */
            cause: "create" | "edit" | "suggest" | "accept" | "reject" | "remove_suggestion" | "restore";
            /** @description For cause restore: the revision whose text was restored. */
            restored_from: number | null;
            /** @description Top-level blocks the revision changed in place, added and removed (revision 1 against an empty document). */
            summary: {
                blocks_changed: number;
                blocks_added: number;
                blocks_removed: number;
            };
            /** Format: uuid */
            uuid: string;
            /** @description The document as it last stood at this revision, CriticMarkup of the suggestions pending then included. */
            markdown: string;
        };
        /** @description Folio extension: not in the spec (docs/extensions.md). */
        DocumentRevisionList: {
            /** @constant */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["DocumentRevision"][];
            /** @description Opaque; null on the last page. */
            next_cursor: string | null;
        };
        /** @description One operation: replace (find, with), insert (markdown, after or before), delete (find), set_document (markdown); quote narrowing with occurrence, before, after. */
        EditOperation: {
            /** @enum {unknown} */
            type: "replace" | "insert" | "delete" | "set_document";
            find?: string;
            with?: string;
            markdown?: string;
            occurrence?: number | ("first" | "last");
            before?: string;
            after?: string;
            /** @description Suggestions only; the first message on the suggestion. */
            comment?: string;
        };
        DocumentAttachment: {
            /** @constant */
            object: "document_attachment";
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            document_uuid: string;
            filename: string;
            content_type: string;
            byte_size: number;
            /** @enum {unknown} */
            upload_status: "completed" | "awaiting_upload" | "failed";
            width: number | null;
            height: number | null;
            inline: boolean;
            markdown: string;
            /** Format: date-time */
            created_at: string;
        };
        EmailAddress: {
            name: string | null;
            address: string;
        };
        /** @description Folio decision: The response shape (spec: "not shown"). docs/webhooks.md § Reading the email. */
        Email: {
            /** @constant */
            object: "email";
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            mailbox_uuid: string;
            thread: {
                /** Format: uuid */
                uuid: string;
            };
            message_id: string | null;
            in_reply_to: string | null;
            references: string[];
            from: components["schemas"]["EmailAddress"] | null;
            to: components["schemas"]["EmailAddress"][];
            cc: components["schemas"]["EmailAddress"][];
            subject: string | null;
            /**
             * Format: date-time
             * @description The Date header; null when absent or unreadable.
             */
            date: string | null;
            /** Format: date-time */
            received_at: string | null;
            labels: string[];
            size_bytes: number;
            text: string | null;
            html: string | null;
            attachments: {
                filename: string | null;
                content_type: string;
                size_bytes: number;
                content_id: string | null;
                disposition: string | null;
            }[];
        };
        WebhookDestination: {
            /** @constant */
            object: "webhook_destination";
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            workspace_uuid: string;
            /** Format: uri */
            url: string;
            description: string | null;
            mailboxes: string[];
            /** @enum {unknown} */
            status: "active" | "paused" | "disabled";
            disabled_reason: string | null;
            /** Format: date-time */
            disabled_at: string | null;
            consecutive_failures: number;
            /** Format: date-time */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        WebhookDestinationWithSecret: {
            /** @constant */
            object: "webhook_destination";
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            workspace_uuid: string;
            /** Format: uri */
            url: string;
            description: string | null;
            mailboxes: string[];
            /** @enum {unknown} */
            status: "active" | "paused" | "disabled";
            disabled_reason: string | null;
            /** Format: date-time */
            disabled_at: string | null;
            consecutive_failures: number;
            /** Format: date-time */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description Shown on create and rotate only. */
            signing_secret: string;
        };
        WebhookSigningSecret: {
            /** @constant */
            object: "webhook_signing_secret";
            signing_secret: string;
            previous_signing_secret: string | null;
            /** Format: date-time */
            previous_secret_expires_at: string | null;
        };
        WebhookDelivery: {
            /** @constant */
            object: "webhook_delivery";
            /** Format: uuid */
            destination_uuid: string;
            event_id: string;
            /**
             * @description Which delivery of the event: 0 for the spec's own, 1, 2, … for manual resends.
             *     Folio extension: not in the spec (docs/extensions.md).
             */
            round: number;
            /**
             * Format: uuid
             * @description Null for a webhook.test event.
             */
            mailbox_uuid: string | null;
            workflow_id: string;
            /** @enum {unknown} */
            state: "scheduled" | "sending" | "waiting" | "succeeded" | "failed" | "stopped" | "terminated";
            attempts: number;
            /** Format: date-time */
            next_attempt_at: string | null;
            terminated_by: string | null;
            terminated_reason: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            finished_at: string | null;
        };
        WebhookAttempt: {
            /** @constant */
            object: "webhook_attempt";
            delivery_id: string;
            event_id: string;
            /**
             * @description The round of the delivery this attempt belongs to (0 for the spec's own).
             *     Folio extension: not in the spec (docs/extensions.md).
             */
            round: number;
            attempt: number;
            /** @enum {unknown} */
            outcome: "pending" | "success" | "failure" | "stopped" | "disabled";
            status_code: number | null;
            error_class: string | null;
            response_time_ms: number | null;
            /** Format: date-time */
            started_at: string;
            /** Format: date-time */
            finished_at: string | null;
        };
        WebhookAttemptPage: {
            /** @constant */
            object: "list";
            data: components["schemas"]["WebhookAttempt"][];
            next_cursor: string | null;
        };
        WebhookDailyStats: {
            /** Format: date */
            day: string;
            attempts: number;
            successes: number;
            failures: number;
            p50_ms: number | null;
            p95_ms: number | null;
        };
    };
    responses: {
        /** @description The request line or headers are over the size limit of Node's HTTP server (16 KB); answered before any route, with an empty body (x-folio-transport). The one error a public route without parameters gives. */
        HeadersTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description No valid access token. */
        DriveUnauthorized: {
            headers: {
                "WWW-Authenticate": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["DriveError"];
            };
        };
        /** @description The token lacks the scope, or is a workspace API key. */
        DriveForbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["DriveError"];
            };
        };
        /** @description The token lacks the scope or is an API key, or the item is visible but the caller's role does not allow this. */
        DriveForbiddenWrite: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["DriveError"];
            };
        };
        /** @description Absent, or not visible to the caller. */
        DriveNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["DriveError"];
            };
        };
        /** @description The body is not a JSON object, or a field has the wrong type; or a query parameter holds U+0000. */
        DriveBadBody: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["DriveError"];
            };
        };
        /** @description The body is not a JSON object, or a field has the wrong type (invalid_body); or If-Match is not `*` or a list of quoted entity tags (invalid_if_match, an extension). */
        DriveBadBodyOrIfMatch: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["DriveError"];
            };
        };
        /**
         * @description If-Match named none of the item's current tags: nothing changed. `current` is the item as it now stands (as the caller's read answers it), and the ETag header its ETag, so a client can reconcile and retry.
         *     Folio extension: not in the spec (docs/extensions.md).
         */
        DrivePreconditionFailed: {
            headers: {
                ETag: components["headers"]["ItemETag"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["DriveError"];
            };
        };
        /**
         * @description If-None-Match named the item's current ETag (or was `*`); no body.
         *     Folio extension: not in the spec (docs/extensions.md).
         */
        DriveItemNotModified: {
            headers: {
                ETag: components["headers"]["ItemETag"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The JSON body is over the route's limit. */
        DriveBodyTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["DriveError"];
            };
        };
        /** @description No valid access token. */
        DocsUnauthorized: {
            headers: {
                "WWW-Authenticate": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description The token lacks the scope or is a workspace API key, or the caller's role does not allow this (the description names the role needed). */
        DocsForbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Absent, or not visible to the caller. */
        DocsNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description No such document (not_found), or no such comment or message on it (comment_not_found). */
        DocsCommentNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description No such document (not_found), or a revision the document never had (revision_not_found). */
        DocsRevisionNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description A path uuid is not a UUID. */
        DocsInvalidUuid: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description The body is not valid JSON or not a JSON object, or a field has the wrong type; or a query parameter holds U+0000. */
        DocsBadBody: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description The JSON body is over the route's limit. */
        DocsBodyTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description The URL breaks the URL rules (reason says which), or mailboxes names mailboxes outside the workspace. */
        WebhookTargetRefused: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
    };
    parameters: {
        /**
         * @description The item's ETag (from a read or a write's answer), or `*` (any item that exists); a list matches when any tag does; a weak tag (W/) never matches. Checked under the item's row lock with the write: a mismatch is 412 precondition_failed and nothing changes. Malformed: 400 invalid_if_match. docs/extensions.md § Conditional writes.
         *     Folio extension: not in the spec (docs/extensions.md).
         */
        IfMatch: string;
        /**
         * @description As If-Match on the other writes, and also the file's content tag `"ctag-<ctag>"` (built from the drive_file's ctag): the replacement starts only if nothing about the file changed (its ETag) or its bytes did not (its content tag). docs/extensions.md § Conditional writes.
         *     Folio extension: not in the spec (docs/extensions.md).
         */
        IfMatchContent: string;
        /**
         * @description The ETag of a copy held, a list of them, or `*`: 304 without a body when one is the item's current ETag (weak comparison). A malformed value is ignored.
         *     Folio extension: not in the spec (docs/extensions.md).
         */
        IfNoneMatch: string;
        /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
        ItemUuid: string;
        /** @description The file_uuid an upload initiate answered. */
        UploadUuid: string;
        /** @description A document; a malformed uuid is 422 invalid_uuid. */
        DocumentUuid: string;
        ThreadUuid: string;
        MessageUuid: string;
        AttachmentUuid: string;
        DestinationUuid: string;
        /**
         * @description A revision number; anything else is 422 invalid_revision.
         *     Folio extension: not in the spec (docs/extensions.md).
         */
        RevisionNumber: number;
        /** @description The event id, whevt_<uuid>. */
        EventId: string;
        /** @description The opaque token of the public link. */
        LinkToken: string;
    };
    requestBodies: {
        PartUrls: {
            content: {
                /**
                 * @example {
                 *       "part_numbers": [
                 *         1
                 *       ]
                 *     }
                 */
                "application/json": {
                    part_numbers: number[];
                };
            };
        };
        CompleteParts: {
            content: {
                /**
                 * @example {
                 *       "parts": [
                 *         {
                 *           "part_number": 1,
                 *           "etag": "5d41402abc4b2a76b9719d911017c592"
                 *         }
                 *       ],
                 *       "content_hash": "e1946584fad18060754b363850cf3a94b834e239a799e457a52aa967a4b4e5b5"
                 *     }
                 */
                "application/json": {
                    parts: {
                        part_number: number;
                        etag: string;
                    }[];
                    /**
                     * @description The plaintext's content hash (Dropbox's content_hash: SHA-256 of the concatenated SHA-256 digests of each 4 MiB block), checked against what storage holds. docs/extensions.md § Content hash.
                     *     Folio extension: not in the spec (docs/extensions.md).
                     */
                    content_hash?: string;
                };
            };
        };
        EditOperations: {
            content: {
                /**
                 * @example {
                 *       "operations": [
                 *         {
                 *           "type": "replace",
                 *           "find": "1 December",
                 *           "with": "8 December"
                 *         }
                 *       ],
                 *       "base_revision": 7
                 *     }
                 */
                "application/json": {
                    operations: components["schemas"]["EditOperation"][];
                    base_revision?: number | null;
                    batch_id?: string | null;
                };
            };
        };
        SuggestOperations: {
            content: {
                /**
                 * @example {
                 *       "operations": [
                 *         {
                 *           "type": "replace",
                 *           "find": "1 December",
                 *           "with": "8 December",
                 *           "comment": "The venue is booked until the 5th."
                 *         }
                 *       ],
                 *       "base_revision": 7
                 *     }
                 */
                "application/json": {
                    /** @description replace, insert and delete, each with an optional comment. */
                    operations: components["schemas"]["EditOperation"][];
                    base_revision?: number | null;
                    batch_id?: string | null;
                };
            };
        };
        MessageBody: {
            content: {
                /**
                 * @example {
                 *       "body": "Moved to Monday, thanks."
                 *     }
                 */
                "application/json": {
                    /** @description Markdown, non-blank. */
                    body: string;
                };
            };
        };
    };
    headers: {
        /**
         * @description The item's strong ETag as this caller sees it: `"<version>-<digest>"`, where the digest is of the exact drive_file or drive_folder this caller is answered (so it changes with every version, and with an owner's name or a folder above trashed). Opaque: send it back in If-Match or If-None-Match as it is. docs/extensions.md § Conditional writes.
         *     Folio extension: not in the spec (docs/extensions.md).
         */
        ItemETag: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process answers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every dependency answers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ready",
                     *       "checks": {
                     *         "postgres": "ok",
                     *         "temporal": "ok",
                     *         "storage": "ok"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            /**
             * @description A dependency does not answer, or the process is shutting down (draining).
             *     Folio decision: During a graceful shutdown /readyz answers 503 `{"status": "draining"}` whatever the dependencies say, so no new request is routed to the process while it finishes those in flight. docs/operations.md.
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"] | components["schemas"]["ReadinessDraining"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document parsed from openapi/folio.yaml. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.1.0",
                     *       "info": {
                     *         "title": "Folio API",
                     *         "version": "1.0.0"
                     *       },
                     *       "paths": {}
                     *     }
                     */
                    "application/json": Record<string, never>;
                };
            };
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getApiReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page; its script is the bundle below. */
            200: {
                headers: {
                    "Content-Security-Policy": string;
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Folio API reference</title></head><body><redoc spec-url="/openapi.json"></redoc><script src="/docs/api/redoc.standalone.js"></script></body></html> */
                    "text/html": string;
                };
            };
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    redirectToApiReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found; the reference is at Location. */
            302: {
                headers: {
                    Location: "/docs/api";
                    [name: string]: unknown;
                };
                content?: never;
            };
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getApiReferenceBundle: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bundle. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example /*! For license information please see redoc.standalone.js.LICENSE.txt *\/ */
                    "text/javascript": string;
                };
            };
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    listFiles: {
        parameters: {
            query?: {
                /** @description The folder to list; omit for the root. */
                folder_uuid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The list envelope of the folder's live children. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "url": "/v1/drive/files",
                     *       "folder_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "folders": [
                     *         {
                     *           "object": "drive_folder",
                     *           "uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *           "parent_uuid": "4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *           "name": "Reports",
                     *           "color": "#4A90E2",
                     *           "trashed": false,
                     *           "version": 3,
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "updated_at": "2026-11-26T09:30:00.000Z",
                     *           "my_role": "owner",
                     *           "shared": false,
                     *           "owner": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           }
                     *         }
                     *       ],
                     *       "files": [
                     *         {
                     *           "object": "drive_file",
                     *           "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *           "folder_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *           "name": "notes.txt",
                     *           "content_type": "text/plain",
                     *           "file_size_bytes": 13,
                     *           "upload_status": "completed",
                     *           "trashed": false,
                     *           "has_preview": false,
                     *           "version": 3,
                     *           "ctag": 2,
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "updated_at": "2026-11-26T09:30:00.000Z",
                     *           "my_role": "owner",
                     *           "shared": false,
                     *           "owner": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "content_hash": "e1946584fad18060754b363850cf3a94b834e239a799e457a52aa967a4b4e5b5"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DriveFileList"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            404: components["responses"]["DriveNotFound"];
        };
    };
    uploadFile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "notes.txt",
                 *       "content_type": "text/plain",
                 *       "data": "SGVsbG8sIEZvbGlvIQ==",
                 *       "folder_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b"
                 *     }
                 */
                "application/json": {
                    name: string;
                    content_type: string;
                    data: string;
                    folder_uuid?: string | null;
                };
            };
        };
        responses: {
            /** @description The created file. */
            201: {
                headers: {
                    ETag: components["headers"]["ItemETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_file",
                     *       "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *       "folder_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "name": "notes.txt",
                     *       "content_type": "text/plain",
                     *       "file_size_bytes": 13,
                     *       "upload_status": "completed",
                     *       "trashed": false,
                     *       "has_preview": false,
                     *       "version": 1,
                     *       "ctag": 0,
                     *       "created_at": "2026-11-26T09:30:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "content_hash": "e1946584fad18060754b363850cf3a94b834e239a799e457a52aa967a4b4e5b5"
                     *     }
                     */
                    "application/json": components["schemas"]["DriveFile"];
                };
            };
            /** @description Refused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            /** @description Over the 100 MB cap */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
            /** @description No large-upload slot is free; retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    listDriveTrash: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The list envelope without folder_uuid. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "url": "/v1/drive/trash",
                     *       "folders": [
                     *         {
                     *           "object": "drive_folder",
                     *           "uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *           "parent_uuid": "4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *           "name": "Reports",
                     *           "color": "#4A90E2",
                     *           "trashed": true,
                     *           "version": 3,
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "updated_at": "2026-11-26T09:30:00.000Z",
                     *           "my_role": "owner",
                     *           "shared": false,
                     *           "owner": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           }
                     *         }
                     *       ],
                     *       "files": [
                     *         {
                     *           "object": "drive_file",
                     *           "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *           "folder_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *           "name": "notes.txt",
                     *           "content_type": "text/plain",
                     *           "file_size_bytes": 13,
                     *           "upload_status": "completed",
                     *           "trashed": true,
                     *           "has_preview": false,
                     *           "version": 3,
                     *           "ctag": 2,
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "updated_at": "2026-11-26T09:30:00.000Z",
                     *           "my_role": "owner",
                     *           "shared": false,
                     *           "owner": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "content_hash": "e1946584fad18060754b363850cf3a94b834e239a799e457a52aa967a4b4e5b5"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DriveTrashList"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
        };
    };
    getFile: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag of a copy held, a list of them, or `*`: 304 without a body when one is the item's current ETag (weak comparison). A malformed value is ignored.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    ETag: components["headers"]["ItemETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_file",
                     *       "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *       "folder_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "name": "notes.txt",
                     *       "content_type": "text/plain",
                     *       "file_size_bytes": 13,
                     *       "upload_status": "completed",
                     *       "trashed": false,
                     *       "has_preview": false,
                     *       "version": 3,
                     *       "ctag": 2,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "content_hash": "e1946584fad18060754b363850cf3a94b834e239a799e457a52aa967a4b4e5b5"
                     *     }
                     */
                    "application/json": components["schemas"]["DriveFile"];
                };
            };
            304: components["responses"]["DriveItemNotModified"];
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            404: components["responses"]["DriveNotFound"];
        };
    };
    updateFile: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The item's ETag (from a read or a write's answer), or `*` (any item that exists); a list matches when any tag does; a weak tag (W/) never matches. Checked under the item's row lock with the write: a mismatch is 412 precondition_failed and nothing changes. Malformed: 400 invalid_if_match. docs/extensions.md § Conditional writes.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "name": "notes (final).txt",
                 *       "folder_uuid": "4d5e6f70-8192-4a3b-9c4d-5e6f708192a3"
                 *     }
                 */
                "application/json": {
                    name?: string;
                    /** @description A present key moves the file; null means the root. */
                    folder_uuid?: string | null;
                    trashed?: boolean;
                };
            };
        };
        responses: {
            /** @description The updated file. */
            200: {
                headers: {
                    ETag: components["headers"]["ItemETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_file",
                     *       "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *       "folder_uuid": "4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *       "name": "notes (final).txt",
                     *       "content_type": "text/plain",
                     *       "file_size_bytes": 13,
                     *       "upload_status": "completed",
                     *       "trashed": false,
                     *       "has_preview": false,
                     *       "version": 4,
                     *       "ctag": 2,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "content_hash": "e1946584fad18060754b363850cf3a94b834e239a799e457a52aa967a4b4e5b5"
                     *     }
                     */
                    "application/json": components["schemas"]["DriveFile"];
                };
            };
            400: components["responses"]["DriveBadBodyOrIfMatch"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            412: components["responses"]["DrivePreconditionFailed"];
            413: components["responses"]["DriveBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    deleteFile: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The item's ETag (from a read or a write's answer), or `*` (any item that exists); a list matches when any tag does; a weak tag (W/) never matches. Checked under the item's row lock with the write: a mismatch is 412 precondition_failed and nothing changes. Malformed: 400 invalid_if_match. docs/extensions.md § Conditional writes.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; empty body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["DriveBadBodyOrIfMatch"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            412: components["responses"]["DrivePreconditionFailed"];
        };
    };
    trashFile: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The item's ETag (from a read or a write's answer), or `*` (any item that exists); a list matches when any tag does; a weak tag (W/) never matches. Checked under the item's row lock with the write: a mismatch is 412 precondition_failed and nothing changes. Malformed: 400 invalid_if_match. docs/extensions.md § Conditional writes.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, trashed. */
            200: {
                headers: {
                    ETag: components["headers"]["ItemETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_file",
                     *       "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *       "folder_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "name": "notes.txt",
                     *       "content_type": "text/plain",
                     *       "file_size_bytes": 13,
                     *       "upload_status": "completed",
                     *       "trashed": true,
                     *       "has_preview": false,
                     *       "version": 4,
                     *       "ctag": 2,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "content_hash": "e1946584fad18060754b363850cf3a94b834e239a799e457a52aa967a4b4e5b5"
                     *     }
                     */
                    "application/json": components["schemas"]["DriveFile"];
                };
            };
            400: components["responses"]["DriveBadBodyOrIfMatch"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            412: components["responses"]["DrivePreconditionFailed"];
        };
    };
    downloadFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The download response. */
            200: {
                headers: {
                    "Cache-Control"?: "private, no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *       "name": "notes.txt",
                     *       "content_type": "text/plain",
                     *       "size": 13,
                     *       "data": "SGVsbG8sIEZvbGlvIQ=="
                     *     }
                     */
                    "application/json": components["schemas"]["DriveDownload"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            404: components["responses"]["DriveNotFound"];
        };
    };
    initChunkedDownload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The download init fields. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data_key": "q4Jc0m3s8Vb1r6T2yH5kL9pZxW7nE0aQdG4fU8iR2oM=",
                     *       "chunk_size_bytes": 8388608,
                     *       "chunk_count": 1,
                     *       "ciphertext_size_bytes": 45,
                     *       "download_url": "https://storage.folio.example.com/folio-drive/versions/6c5b4a39-2817-4f6e-9d5c-4b3a29181706?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature=3e5f9a",
                     *       "version_uuid": "6c5b4a39-2817-4f6e-9d5c-4b3a29181706"
                     *     }
                     */
                    "application/json": components["schemas"]["DriveDownloadInit"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            404: components["responses"]["DriveNotFound"];
        };
    };
    initReplace: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description As If-Match on the other writes, and also the file's content tag `"ctag-<ctag>"` (built from the drive_file's ctag): the replacement starts only if nothing about the file changed (its ETag) or its bytes did not (its content tag). docs/extensions.md § Conditional writes.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                "If-Match"?: components["parameters"]["IfMatchContent"];
            };
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "plaintext_size_bytes": 13,
                 *       "content_type": "text/plain"
                 *     }
                 */
                "application/json": {
                    plaintext_size_bytes: number;
                    content_type?: string;
                };
            };
        };
        responses: {
            /** @description The replace initiate fields. */
            201: {
                headers: {
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "version_uuid": "6c5b4a39-2817-4f6e-9d5c-4b3a29181706",
                     *       "data_key": "q4Jc0m3s8Vb1r6T2yH5kL9pZxW7nE0aQdG4fU8iR2oM=",
                     *       "chunk_size_bytes": 8388608,
                     *       "chunk_count": 1,
                     *       "storage_upload_id": "ZjM4YTVkNjEtNjJmNy00YzE5LTk1ZDgtNGE3NmQ3ZWNmYjUy"
                     *     }
                     */
                    "application/json": components["schemas"]["DriveReplaceInitiate"];
                };
            };
            400: components["responses"]["DriveBadBodyOrIfMatch"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            412: components["responses"]["DrivePreconditionFailed"];
            413: components["responses"]["DriveBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    getReplacePartUrls: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["PartUrls"];
        responses: {
            /** @description The part URLs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "part_urls": [
                     *         {
                     *           "part_number": 1,
                     *           "url": "https://storage.folio.example.com/folio-drive/uploads/3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60?partNumber=1&uploadId=ZjM4YTVk&X-Amz-Signature=7c1e0b",
                     *           "expires_at": "2026-11-26T10:30:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DrivePartUrls"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            413: components["responses"]["DriveBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    completeReplace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["CompleteParts"];
        responses: {
            /** @description The updated file. */
            200: {
                headers: {
                    ETag: components["headers"]["ItemETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_file",
                     *       "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *       "folder_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "name": "notes.txt",
                     *       "content_type": "text/plain",
                     *       "file_size_bytes": 13,
                     *       "upload_status": "completed",
                     *       "trashed": false,
                     *       "has_preview": false,
                     *       "version": 3,
                     *       "ctag": 2,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "content_hash": "e1946584fad18060754b363850cf3a94b834e239a799e457a52aa967a4b4e5b5"
                     *     }
                     */
                    "application/json": components["schemas"]["DriveFile"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            413: components["responses"]["DriveBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    abortReplace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, unchanged. */
            200: {
                headers: {
                    ETag: components["headers"]["ItemETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_file",
                     *       "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *       "folder_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "name": "notes.txt",
                     *       "content_type": "text/plain",
                     *       "file_size_bytes": 13,
                     *       "upload_status": "completed",
                     *       "trashed": false,
                     *       "has_preview": false,
                     *       "version": 3,
                     *       "ctag": 2,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "content_hash": "e1946584fad18060754b363850cf3a94b834e239a799e457a52aa967a4b4e5b5"
                     *     }
                     */
                    "application/json": components["schemas"]["DriveFile"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    initUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "holiday.mov",
                 *       "content_type": "video/quicktime",
                 *       "plaintext_size_bytes": 734003200,
                 *       "folder_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b"
                 *     }
                 */
                "application/json": {
                    name: string;
                    content_type: string;
                    plaintext_size_bytes: number;
                    folder_uuid?: string | null;
                };
            };
        };
        responses: {
            /** @description The upload initiate fields. */
            201: {
                headers: {
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "file_uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *       "data_key": "q4Jc0m3s8Vb1r6T2yH5kL9pZxW7nE0aQdG4fU8iR2oM=",
                     *       "chunk_size_bytes": 8388608,
                     *       "chunk_count": 1,
                     *       "storage_upload_id": "ZjM4YTVkNjEtNjJmNy00YzE5LTk1ZDgtNGE3NmQ3ZWNmYjUy"
                     *     }
                     */
                    "application/json": components["schemas"]["DriveUploadInitiate"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            413: components["responses"]["DriveBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    getUploadStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file_uuid an upload initiate answered. */
                uuid: components["parameters"]["UploadUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload session. */
            200: {
                headers: {
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_upload",
                     *       "file_uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *       "upload_status": "uploading",
                     *       "chunk_size_bytes": 8388608,
                     *       "chunk_count": 1,
                     *       "storage_upload_id": "ZjM4YTVkNjEtNjJmNy00YzE5LTk1ZDgtNGE3NmQ3ZWNmYjUy",
                     *       "parts": [
                     *         {
                     *           "part_number": 1,
                     *           "size_bytes": 13,
                     *           "etag": "5d41402abc4b2a76b9719d911017c592"
                     *         }
                     *       ],
                     *       "expires_at": "2026-11-26T10:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DriveUploadStatus"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            404: components["responses"]["DriveNotFound"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    getUploadPartUrls: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file_uuid an upload initiate answered. */
                uuid: components["parameters"]["UploadUuid"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["PartUrls"];
        responses: {
            /** @description The part URLs. */
            200: {
                headers: {
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "part_urls": [
                     *         {
                     *           "part_number": 1,
                     *           "url": "https://storage.folio.example.com/folio-drive/uploads/3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60?partNumber=1&uploadId=ZjM4YTVk&X-Amz-Signature=7c1e0b",
                     *           "expires_at": "2026-11-26T10:30:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DrivePartUrls"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            404: components["responses"]["DriveNotFound"];
            413: components["responses"]["DriveBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    completeUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file_uuid an upload initiate answered. */
                uuid: components["parameters"]["UploadUuid"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["CompleteParts"];
        responses: {
            /** @description The completed file. */
            200: {
                headers: {
                    ETag: components["headers"]["ItemETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_file",
                     *       "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *       "folder_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "name": "notes.txt",
                     *       "content_type": "text/plain",
                     *       "file_size_bytes": 13,
                     *       "upload_status": "completed",
                     *       "trashed": false,
                     *       "has_preview": false,
                     *       "version": 3,
                     *       "ctag": 2,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "content_hash": "e1946584fad18060754b363850cf3a94b834e239a799e457a52aa967a4b4e5b5"
                     *     }
                     */
                    "application/json": components["schemas"]["DriveFile"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            413: components["responses"]["DriveBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    abortUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file_uuid an upload initiate answered. */
                uuid: components["parameters"]["UploadUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Aborted; empty body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            404: components["responses"]["DriveNotFound"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    createFolder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Reports",
                 *       "parent_uuid": null,
                 *       "color": "#4A90E2"
                 *     }
                 */
                "application/json": {
                    name: string;
                    parent_uuid?: string | null;
                    color?: string | null;
                };
            };
        };
        responses: {
            /** @description The created folder. */
            201: {
                headers: {
                    ETag: components["headers"]["ItemETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_folder",
                     *       "uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "parent_uuid": null,
                     *       "name": "Reports",
                     *       "color": "#4A90E2",
                     *       "trashed": false,
                     *       "version": 1,
                     *       "created_at": "2026-11-26T09:30:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["DriveFolder"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            413: components["responses"]["DriveBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    getFolder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag of a copy held, a list of them, or `*`: 304 without a body when one is the item's current ETag (weak comparison). A malformed value is ignored.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The folder. */
            200: {
                headers: {
                    ETag: components["headers"]["ItemETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_folder",
                     *       "uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "parent_uuid": "4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *       "name": "Reports",
                     *       "color": "#4A90E2",
                     *       "trashed": false,
                     *       "version": 3,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["DriveFolder"];
                };
            };
            304: components["responses"]["DriveItemNotModified"];
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            404: components["responses"]["DriveNotFound"];
        };
    };
    updateFolder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The item's ETag (from a read or a write's answer), or `*` (any item that exists); a list matches when any tag does; a weak tag (W/) never matches. Checked under the item's row lock with the write: a mismatch is 412 precondition_failed and nothing changes. Malformed: 400 invalid_if_match. docs/extensions.md § Conditional writes.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "name": "Reports 2026",
                 *       "color": "#E94E77"
                 *     }
                 */
                "application/json": {
                    name?: string;
                    parent_uuid?: string | null;
                    /** @description #RRGGBB; blank or null clears it. */
                    color?: string | null;
                    trashed?: boolean;
                };
            };
        };
        responses: {
            /** @description The updated folder. */
            200: {
                headers: {
                    ETag: components["headers"]["ItemETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_folder",
                     *       "uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "parent_uuid": "4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *       "name": "Reports 2026",
                     *       "color": "#E94E77",
                     *       "trashed": false,
                     *       "version": 4,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["DriveFolder"];
                };
            };
            400: components["responses"]["DriveBadBodyOrIfMatch"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            412: components["responses"]["DrivePreconditionFailed"];
            413: components["responses"]["DriveBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    deleteFolder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The item's ETag (from a read or a write's answer), or `*` (any item that exists); a list matches when any tag does; a weak tag (W/) never matches. Checked under the item's row lock with the write: a mismatch is 412 precondition_failed and nothing changes. Malformed: 400 invalid_if_match. docs/extensions.md § Conditional writes.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; empty body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["DriveBadBodyOrIfMatch"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            412: components["responses"]["DrivePreconditionFailed"];
        };
    };
    trashFolder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The item's ETag (from a read or a write's answer), or `*` (any item that exists); a list matches when any tag does; a weak tag (W/) never matches. Checked under the item's row lock with the write: a mismatch is 412 precondition_failed and nothing changes. Malformed: 400 invalid_if_match. docs/extensions.md § Conditional writes.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The folder, trashed. */
            200: {
                headers: {
                    ETag: components["headers"]["ItemETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_folder",
                     *       "uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "parent_uuid": "4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *       "name": "Reports",
                     *       "color": "#4A90E2",
                     *       "trashed": true,
                     *       "version": 4,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["DriveFolder"];
                };
            };
            400: components["responses"]["DriveBadBodyOrIfMatch"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbiddenWrite"];
            404: components["responses"]["DriveNotFound"];
            412: components["responses"]["DrivePreconditionFailed"];
        };
    };
    getFileSharing: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sharing settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_sharing",
                     *       "resource_type": "file",
                     *       "resource_uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *       "accesses": [
                     *         {
                     *           "object": "drive_access",
                     *           "uuid": "a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d",
                     *           "principal_type": "user",
                     *           "principal_user_uuid": "7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d",
                     *           "principal_workspace_uuid": null,
                     *           "principal_email": "grace@example.com",
                     *           "role": "editor",
                     *           "status": "accepted",
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "public_link": {
                     *         "object": "drive_public_link",
                     *         "uuid": "d6e5f4a3-b2c1-4d0e-9f8a-7b6c5d4e3f2a",
                     *         "resource_type": "file",
                     *         "resource_uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *         "token": "k7Qm2xV9pR4tYw8zL1nB5cD3",
                     *         "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3",
                     *         "status": "ready",
                     *         "created_at": "2026-11-20T14:05:00.000Z",
                     *         "updated_at": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["DriveSharing"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            404: components["responses"]["DriveNotFound"];
        };
    };
    getFolderSharing: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sharing settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_sharing",
                     *       "resource_type": "folder",
                     *       "resource_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "accesses": [
                     *         {
                     *           "object": "drive_access",
                     *           "uuid": "a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d",
                     *           "principal_type": "user",
                     *           "principal_user_uuid": "7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d",
                     *           "principal_workspace_uuid": null,
                     *           "principal_email": "grace@example.com",
                     *           "role": "editor",
                     *           "status": "accepted",
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "public_link": {
                     *         "object": "drive_public_link",
                     *         "uuid": "d6e5f4a3-b2c1-4d0e-9f8a-7b6c5d4e3f2a",
                     *         "resource_type": "folder",
                     *         "resource_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *         "token": "k7Qm2xV9pR4tYw8zL1nB5cD3",
                     *         "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3",
                     *         "status": "ready",
                     *         "created_at": "2026-11-20T14:05:00.000Z",
                     *         "updated_at": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["DriveSharing"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            404: components["responses"]["DriveNotFound"];
        };
    };
    getThumbnail: {
        parameters: {
            query?: {
                variant?: "1024_fit";
            };
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                /** @description A Drive item; anything else, a malformed uuid included, is 404 not_found. */
                uuid: components["parameters"]["ItemUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image bytes. */
            200: {
                headers: {
                    ETag: string;
                    "Cache-Control": "private, max-age=31536000, immutable";
                    [name: string]: unknown;
                };
                content: {
                    "image/jpeg": string;
                    "image/png": string;
                };
            };
            /** @description Eligible but not yet rendered. */
            202: {
                headers: {
                    "Retry-After": "1";
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The file has no preview. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description If-None-Match matched the ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown variant */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            404: components["responses"]["DriveNotFound"];
        };
    };
    getThumbnailBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "uuids": [
                 *         "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60"
                 *       ],
                 *       "variant": "1024_fit"
                 *     }
                 */
                "application/json": {
                    uuids: string[];
                    /**
                     * @default 1024_fit
                     * @enum {string}
                     */
                    variant?: "1024_fit";
                };
            };
        };
        responses: {
            /** @description Each item with its own status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "thumbnails": [
                     *         {
                     *           "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *           "status": "ready",
                     *           "data": "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQ==",
                     *           "content_type": "image/jpeg",
                     *           "version": 3
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DriveThumbnailBatch"];
                };
            };
            /** @description Refused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            413: components["responses"]["DriveBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    listChanges: {
        parameters: {
            query?: {
                since?: string;
                limit?: number;
                /**
                 * @description `latest` answers an empty page (`changes: []`, `has_more: false`) whose sync_token is the head of the caller's workspace change log: passed as since, it returns only changes committed after this call. With since as well, another value, or repeated: 400 invalid_body. docs/extensions.md § Drive changes extras.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                sync_token?: "latest";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A changes page. */
            200: {
                headers: {
                    /**
                     * @description While has_more is true, the next page's address (RFC 8288 rel="next", relative to the request): since is this page's sync_token, limit this request's. A client asks for it as soon as the headers arrive, while it still reads this page. Absent on the last page. docs/extensions.md § Drive changes extras.
                     *     Folio extension: not in the spec (docs/extensions.md).
                     */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "url": "/v1/drive/changes",
                     *       "as_of": "2026-11-26T09:30:00.000Z",
                     *       "sync_token": "eyJ2IjoxLCJzZXEiOjQyMTd9",
                     *       "has_more": false,
                     *       "changes": [
                     *         {
                     *           "type": "create",
                     *           "resource_type": "file",
                     *           "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *           "resource": {
                     *             "object": "drive_file",
                     *             "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *             "folder_uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *             "name": "notes.txt",
                     *             "content_type": "text/plain",
                     *             "file_size_bytes": 13,
                     *             "upload_status": "completed",
                     *             "trashed": false,
                     *             "has_preview": false,
                     *             "version": 3,
                     *             "ctag": 2,
                     *             "created_at": "2026-11-20T14:05:00.000Z",
                     *             "updated_at": "2026-11-26T09:30:00.000Z",
                     *             "my_role": "owner",
                     *             "shared": false,
                     *             "owner": {
                     *               "self": true,
                     *               "first_name": "Ada",
                     *               "last_name": "Lovelace",
                     *               "display_name": "Ada Lovelace"
                     *             },
                     *             "content_hash": "e1946584fad18060754b363850cf3a94b834e239a799e457a52aa967a4b4e5b5"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DriveChangesPage"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            /** @description The token cannot be honored; reseed without since */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    waitForChanges: {
        parameters: {
            query: {
                /**
                 * @description A sync_token of the changes feed.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                sync_token: string;
                /**
                 * @description Whole seconds to wait.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                timeout?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether the feed has a change after the token. */
            200: {
                headers: {
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "changes": false
                     *     }
                     */
                    "application/json": components["schemas"]["DriveChangesWait"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            /** @description The token cannot be honored; reseed without since */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
            /** @description The caller already holds the most long-polls one person may (max_waits). */
            429: {
                headers: {
                    "Retry-After": "30";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    createPushSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "push_client_uuid": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
                 *       "device_token": "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90",
                 *       "container_identifier": "iCloud.com.example.folio",
                 *       "domain_identifier": "com.example.folio.drive"
                 *     }
                 */
                "application/json": {
                    push_client_uuid: string;
                    /** @description Hex device token; never returned. */
                    device_token: string;
                    container_identifier: string;
                    /** @description The authenticated workspace's UUID. */
                    domain_identifier: string;
                };
            };
        };
        responses: {
            /** @description The subscription. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_push_subscription",
                     *       "uuid": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
                     *       "push_client_uuid": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
                     *       "container_identifier": "iCloud.com.example.folio",
                     *       "domain_identifier": "com.example.folio.drive",
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "unregistered_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["DrivePushSubscription"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            413: components["responses"]["DriveBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DriveError"];
                };
            };
        };
    };
    deletePushSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription with unregistered_at set. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_push_subscription",
                     *       "uuid": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
                     *       "push_client_uuid": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
                     *       "container_identifier": "iCloud.com.example.folio",
                     *       "domain_identifier": "com.example.folio.drive",
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "unregistered_at": "2026-11-26T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DrivePushSubscription"];
                };
            };
            400: components["responses"]["DriveBadBody"];
            401: components["responses"]["DriveUnauthorized"];
            403: components["responses"]["DriveForbidden"];
            404: components["responses"]["DriveNotFound"];
        };
    };
    openPublicLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The opaque token of the public link. */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A file's plaintext (its own type, Content-Disposition attachment), or a folder listing. */
            200: {
                headers: {
                    "Cache-Control"?: "no-store";
                    "X-Content-Type-Options"?: "nosniff";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_public_folder",
                     *       "uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "name": "Reports",
                     *       "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3",
                     *       "parent_url": null,
                     *       "folders": [
                     *         {
                     *           "uuid": "4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *           "name": "2026",
                     *           "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3/4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "files": [
                     *         {
                     *           "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *           "name": "notes.txt",
                     *           "content_type": "text/plain",
                     *           "size_bytes": 13,
                     *           "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3/3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "truncated": false
                     *     }
                     */
                    "application/json": components["schemas"]["DrivePublicFolder"];
                    /** @example <!doctype html><html><head><title>Launch plan</title></head><body><h1>Launch plan</h1></body></html> */
                    "text/html": string;
                    "*/*": string;
                };
            };
            /** @description No such link, or it shares nothing now. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                    "text/html": string;
                };
            };
            /** @description Rate limited; retry after Retry-After seconds. */
            429: {
                headers: {
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                    "text/html": string;
                };
            };
        };
    };
    headPublicLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The opaque token of the public link. */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A file's plaintext (its own type, Content-Disposition attachment), or a folder listing. */
            200: {
                headers: {
                    "Cache-Control"?: "no-store";
                    "X-Content-Type-Options"?: "nosniff";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_public_folder",
                     *       "uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "name": "Reports",
                     *       "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3",
                     *       "parent_url": null,
                     *       "folders": [
                     *         {
                     *           "uuid": "4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *           "name": "2026",
                     *           "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3/4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "files": [
                     *         {
                     *           "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *           "name": "notes.txt",
                     *           "content_type": "text/plain",
                     *           "size_bytes": 13,
                     *           "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3/3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "truncated": false
                     *     }
                     */
                    "application/json": components["schemas"]["DrivePublicFolder"];
                    /** @example <!doctype html><html><head><title>Launch plan</title></head><body><h1>Launch plan</h1></body></html> */
                    "text/html": string;
                    "*/*": string;
                };
            };
            /** @description No such link, or it shares nothing now. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                    "text/html": string;
                };
            };
            /** @description Rate limited; retry after Retry-After seconds. */
            429: {
                headers: {
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                    "text/html": string;
                };
            };
        };
    };
    openPublicLinkItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The opaque token of the public link. */
                token: components["parameters"]["LinkToken"];
                /** @description An item anywhere below the shared folder. */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A file's plaintext (its own type, Content-Disposition attachment), or a folder listing. */
            200: {
                headers: {
                    "Cache-Control"?: "no-store";
                    "X-Content-Type-Options"?: "nosniff";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_public_folder",
                     *       "uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "name": "Reports",
                     *       "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3",
                     *       "parent_url": null,
                     *       "folders": [
                     *         {
                     *           "uuid": "4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *           "name": "2026",
                     *           "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3/4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "files": [
                     *         {
                     *           "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *           "name": "notes.txt",
                     *           "content_type": "text/plain",
                     *           "size_bytes": 13,
                     *           "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3/3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "truncated": false
                     *     }
                     */
                    "application/json": components["schemas"]["DrivePublicFolder"];
                    /** @example <!doctype html><html><head><title>Launch plan</title></head><body><h1>Launch plan</h1></body></html> */
                    "text/html": string;
                    "*/*": string;
                };
            };
            /** @description No such link, or it shares nothing now. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                    "text/html": string;
                };
            };
            /** @description Rate limited; retry after Retry-After seconds. */
            429: {
                headers: {
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                    "text/html": string;
                };
            };
        };
    };
    headPublicLinkItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The opaque token of the public link. */
                token: components["parameters"]["LinkToken"];
                /** @description An item anywhere below the shared folder. */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A file's plaintext (its own type, Content-Disposition attachment), or a folder listing. */
            200: {
                headers: {
                    "Cache-Control"?: "no-store";
                    "X-Content-Type-Options"?: "nosniff";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "drive_public_folder",
                     *       "uuid": "9b2d4c6e-1a3f-4e5d-8c7b-2a1f0e9d8c7b",
                     *       "name": "Reports",
                     *       "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3",
                     *       "parent_url": null,
                     *       "folders": [
                     *         {
                     *           "uuid": "4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *           "name": "2026",
                     *           "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3/4d5e6f70-8192-4a3b-9c4d-5e6f708192a3",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "files": [
                     *         {
                     *           "uuid": "3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *           "name": "notes.txt",
                     *           "content_type": "text/plain",
                     *           "size_bytes": 13,
                     *           "url": "https://folio.example.com/s/k7Qm2xV9pR4tYw8zL1nB5cD3/3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "truncated": false
                     *     }
                     */
                    "application/json": components["schemas"]["DrivePublicFolder"];
                    /** @example <!doctype html><html><head><title>Launch plan</title></head><body><h1>Launch plan</h1></body></html> */
                    "text/html": string;
                    "*/*": string;
                };
            };
            /** @description No such link, or it shares nothing now. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                    "text/html": string;
                };
            };
            /** @description Rate limited; retry after Retry-After seconds. */
            429: {
                headers: {
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                    "text/html": string;
                };
            };
        };
    };
    listDocuments: {
        parameters: {
            query?: {
                q?: string;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of documents. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "url": "/v1/documents",
                     *       "has_more": false,
                     *       "data": [
                     *         {
                     *           "object": "document",
                     *           "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *           "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *           "title": "Launch plan",
                     *           "url": "https://folio.example.com/docs/c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *           "my_role": "owner",
                     *           "shared": false,
                     *           "owner": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "trashed_at": null,
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentList"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    createDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "title": "Launch plan"
                 *     }
                 */
                "application/json": {
                    title?: string | null;
                };
            };
        };
        responses: {
            /** @description The created document. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document",
                     *       "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *       "title": "Launch plan",
                     *       "url": "https://folio.example.com/docs/c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "trashed_at": null,
                     *       "created_at": "2026-11-26T09:30:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Document"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            413: components["responses"]["DocsBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listTrashedDocuments: {
        parameters: {
            query?: {
                q?: string;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of trashed documents. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "url": "/v1/documents",
                     *       "has_more": false,
                     *       "data": [
                     *         {
                     *           "object": "document",
                     *           "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *           "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *           "title": "Launch plan",
                     *           "url": "https://folio.example.com/docs/c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *           "my_role": "owner",
                     *           "shared": false,
                     *           "owner": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "trashed_at": "2026-11-26T09:30:00.000Z",
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentList"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document",
                     *       "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *       "title": "Launch plan",
                     *       "url": "https://folio.example.com/docs/c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "trashed_at": null,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Document"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            422: components["responses"]["DocsInvalidUuid"];
        };
    };
    updateDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "title": "Launch plan (v2)"
                 *     }
                 */
                "application/json": {
                    title?: string | null;
                    trashed?: boolean;
                };
            };
        };
        responses: {
            /** @description The updated document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document",
                     *       "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *       "title": "Launch plan (v2)",
                     *       "url": "https://folio.example.com/docs/c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "trashed_at": null,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Document"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            413: components["responses"]["DocsBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    trashDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document, trashed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document",
                     *       "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *       "title": "Launch plan",
                     *       "url": "https://folio.example.com/docs/c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "my_role": "owner",
                     *       "shared": false,
                     *       "owner": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "trashed_at": "2026-11-26T09:30:00.000Z",
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Document"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            422: components["responses"]["DocsInvalidUuid"];
        };
    };
    getDocumentContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The content. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document_content",
                     *       "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "revision": 7,
                     *       "markdown": "# Launch plan\n\nShip the beta on **1 December**.\n",
                     *       "threads": [
                     *         {
                     *           "uuid": "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e",
                     *           "kind": "comment",
                     *           "ref": null,
                     *           "status": "open",
                     *           "placement": "attached",
                     *           "quote": "1 December",
                     *           "suggested_text": null,
                     *           "suggested_format": null,
                     *           "author": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "messages": [
                     *             {
                     *               "uuid": "f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0",
                     *               "author": {
                     *                 "self": true,
                     *                 "first_name": "Ada",
                     *                 "last_name": "Lovelace",
                     *                 "display_name": "Ada Lovelace"
                     *               },
                     *               "body": "Can we move this to Monday?",
                     *               "created_at": "2026-11-20T14:05:00.000Z",
                     *               "edited_at": null
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentContent"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            422: components["responses"]["DocsInvalidUuid"];
        };
    };
    editDocumentContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["EditOperations"];
        responses: {
            /** @description The content after the edit. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document_content",
                     *       "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "revision": 8,
                     *       "markdown": "# Launch plan\n\nShip the beta on **8 December**.\n",
                     *       "threads": [
                     *         {
                     *           "uuid": "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e",
                     *           "kind": "comment",
                     *           "ref": null,
                     *           "status": "open",
                     *           "placement": "attached",
                     *           "quote": "1 December",
                     *           "suggested_text": null,
                     *           "suggested_format": null,
                     *           "author": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "messages": [
                     *             {
                     *               "uuid": "f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0",
                     *               "author": {
                     *                 "self": true,
                     *                 "first_name": "Ada",
                     *                 "last_name": "Lovelace",
                     *                 "display_name": "Ada Lovelace"
                     *               },
                     *               "body": "Can we move this to Monday?",
                     *               "created_at": "2026-11-20T14:05:00.000Z",
                     *               "edited_at": null
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentContent"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    exportDocument: {
        parameters: {
            query?: {
                /** @description Folio extension: not in the spec (docs/extensions.md). */
                format?: "md" | "html";
                /** @description Folio extension: not in the spec (docs/extensions.md). */
                suggestions?: "show" | "accept" | "reject";
            };
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    /** @description `<title or "Untitled">.md` or `.html`, with an ASCII fallback and an RFC 5987 filename*. */
                    "Content-Disposition": string;
                    /**
                     * @description The revision exported.
                     *     Folio extension: not in the spec (docs/extensions.md).
                     */
                    "X-Folio-Revision": string;
                    "X-Content-Type-Options": "nosniff";
                    "Cache-Control": "private, no-store";
                    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example # Launch plan
                     *
                     *     Ship the beta on **1 December**.
                     */
                    "text/markdown": string;
                    /** @example <!doctype html><html><head><title>Launch plan</title></head><body><h1>Launch plan</h1></body></html> */
                    "text/html": string;
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listDocumentRevisions: {
        parameters: {
            query?: {
                /** @description Folio extension: not in the spec (docs/extensions.md). */
                limit?: number;
                /**
                 * @description The next_cursor of the previous page.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of revisions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "url": "/v1/documents/c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d/revisions",
                     *       "has_more": false,
                     *       "data": [
                     *         {
                     *           "object": "document_revision",
                     *           "revision": 7,
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "author": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "cause": "edit",
                     *           "restored_from": null,
                     *           "summary": {
                     *             "blocks_changed": 1,
                     *             "blocks_added": 0,
                     *             "blocks_removed": 0
                     *           }
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentRevisionList"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getDocumentRevision: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                /**
                 * @description A revision number; anything else is 422 invalid_revision.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                revision: components["parameters"]["RevisionNumber"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revision and its markdown (CriticMarkup of the suggestions pending then included). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document_revision",
                     *       "revision": 7,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "author": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "cause": "edit",
                     *       "restored_from": null,
                     *       "summary": {
                     *         "blocks_changed": 1,
                     *         "blocks_added": 0,
                     *         "blocks_removed": 0
                     *       },
                     *       "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "markdown": "# Launch plan\n\nShip the beta on **1 December**.\n"
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentRevisionContent"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsRevisionNotFound"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    restoreDocumentRevision: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                /**
                 * @description A revision number; anything else is 422 invalid_revision.
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                revision: components["parameters"]["RevisionNumber"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The content after the restore. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document_content",
                     *       "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "revision": 7,
                     *       "markdown": "# Launch plan\n\nShip the beta on **1 December**.\n",
                     *       "threads": [
                     *         {
                     *           "uuid": "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e",
                     *           "kind": "comment",
                     *           "ref": null,
                     *           "status": "open",
                     *           "placement": "attached",
                     *           "quote": "1 December",
                     *           "suggested_text": null,
                     *           "suggested_format": null,
                     *           "author": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "messages": [
                     *             {
                     *               "uuid": "f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0",
                     *               "author": {
                     *                 "self": true,
                     *                 "first_name": "Ada",
                     *                 "last_name": "Lovelace",
                     *                 "display_name": "Ada Lovelace"
                     *               },
                     *               "body": "Can we move this to Monday?",
                     *               "created_at": "2026-11-20T14:05:00.000Z",
                     *               "edited_at": null
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentContent"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsRevisionNotFound"];
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    streamDocumentEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An event stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example id: 8
                     *     event: revision
                     *     data: {"document_uuid":"c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d","revision":8}
                     *
                     *     event: threads
                     *     data: {"document_uuid":"c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d","revision":8}
                     */
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            422: components["responses"]["DocsInvalidUuid"];
            /** @description Too many streams */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    createSuggestions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["SuggestOperations"];
        responses: {
            /** @description The content plus the new suggestions' uuids, one per operation, in order. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document_content",
                     *       "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "revision": 7,
                     *       "markdown": "# Launch plan\n\nShip the beta on **{--1 December--}{++8 December++}{>>s1<<}**.\n",
                     *       "threads": [
                     *         {
                     *           "uuid": "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e",
                     *           "kind": "suggestion",
                     *           "ref": "s1",
                     *           "status": "open",
                     *           "placement": "attached",
                     *           "quote": "1 December",
                     *           "suggested_text": "8 December",
                     *           "suggested_format": null,
                     *           "author": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "messages": [
                     *             {
                     *               "uuid": "f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0",
                     *               "author": {
                     *                 "self": true,
                     *                 "first_name": "Ada",
                     *                 "last_name": "Lovelace",
                     *                 "display_name": "Ada Lovelace"
                     *               },
                     *               "body": "The venue is booked until the 5th.",
                     *               "created_at": "2026-11-20T14:05:00.000Z",
                     *               "edited_at": null
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "suggestions": [
                     *         "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentContentWithSuggestions"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    acceptSuggestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The content after the decision. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document_content",
                     *       "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "revision": 7,
                     *       "markdown": "# Launch plan\n\nShip the beta on **1 December**.\n",
                     *       "threads": [
                     *         {
                     *           "uuid": "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e",
                     *           "kind": "comment",
                     *           "ref": null,
                     *           "status": "open",
                     *           "placement": "attached",
                     *           "quote": "1 December",
                     *           "suggested_text": null,
                     *           "suggested_format": null,
                     *           "author": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "messages": [
                     *             {
                     *               "uuid": "f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0",
                     *               "author": {
                     *                 "self": true,
                     *                 "first_name": "Ada",
                     *                 "last_name": "Lovelace",
                     *                 "display_name": "Ada Lovelace"
                     *               },
                     *               "body": "Can we move this to Monday?",
                     *               "created_at": "2026-11-20T14:05:00.000Z",
                     *               "edited_at": null
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentContent"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    rejectSuggestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The content after the decision. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document_content",
                     *       "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "revision": 7,
                     *       "markdown": "# Launch plan\n\nShip the beta on **1 December**.\n",
                     *       "threads": [
                     *         {
                     *           "uuid": "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e",
                     *           "kind": "comment",
                     *           "ref": null,
                     *           "status": "open",
                     *           "placement": "attached",
                     *           "quote": "1 December",
                     *           "suggested_text": null,
                     *           "suggested_format": null,
                     *           "author": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "messages": [
                     *             {
                     *               "uuid": "f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0",
                     *               "author": {
                     *                 "self": true,
                     *                 "first_name": "Ada",
                     *                 "last_name": "Lovelace",
                     *                 "display_name": "Ada Lovelace"
                     *               },
                     *               "body": "Can we move this to Monday?",
                     *               "created_at": "2026-11-20T14:05:00.000Z",
                     *               "edited_at": null
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentContent"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    deleteSuggestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The content after the decision. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document_content",
                     *       "uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "revision": 7,
                     *       "markdown": "# Launch plan\n\nShip the beta on **1 December**.\n",
                     *       "threads": [
                     *         {
                     *           "uuid": "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e",
                     *           "kind": "comment",
                     *           "ref": null,
                     *           "status": "open",
                     *           "placement": "attached",
                     *           "quote": "1 December",
                     *           "suggested_text": null,
                     *           "suggested_format": null,
                     *           "author": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "messages": [
                     *             {
                     *               "uuid": "f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0",
                     *               "author": {
                     *                 "self": true,
                     *                 "first_name": "Ada",
                     *                 "last_name": "Lovelace",
                     *                 "display_name": "Ada Lovelace"
                     *               },
                     *               "body": "Can we move this to Monday?",
                     *               "created_at": "2026-11-20T14:05:00.000Z",
                     *               "edited_at": null
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentContent"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    createComment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "body": "Can we move this to Monday?",
                 *       "on": "1 December"
                 *     }
                 */
                "application/json": {
                    body: string;
                    on?: string | null;
                    occurrence?: number | ("first" | "last") | null;
                    before?: string | null;
                    after?: string | null;
                };
            };
        };
        responses: {
            /** @description The new thread. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "uuid": "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e",
                     *       "kind": "comment",
                     *       "ref": null,
                     *       "status": "open",
                     *       "placement": "attached",
                     *       "quote": "1 December",
                     *       "suggested_text": null,
                     *       "suggested_format": null,
                     *       "author": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "messages": [
                     *         {
                     *           "uuid": "f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0",
                     *           "author": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "body": "Can we move this to Monday?",
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "edited_at": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Thread"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            413: components["responses"]["DocsBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    setCommentStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "resolved"
                 *     }
                 */
                "application/json": {
                    /** @enum {unknown} */
                    status: "open" | "resolved";
                };
            };
        };
        responses: {
            /** @description The thread. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "uuid": "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e",
                     *       "kind": "comment",
                     *       "ref": null,
                     *       "status": "resolved",
                     *       "placement": "attached",
                     *       "quote": "1 December",
                     *       "suggested_text": null,
                     *       "suggested_format": null,
                     *       "author": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "messages": [
                     *         {
                     *           "uuid": "f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0",
                     *           "author": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "body": "Can we move this to Monday?",
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "edited_at": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Thread"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsCommentNotFound"];
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            413: components["responses"]["DocsBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    deleteComment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; empty body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsCommentNotFound"];
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    replyToComment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["MessageBody"];
        responses: {
            /** @description The thread with the reply. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "uuid": "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e",
                     *       "kind": "comment",
                     *       "ref": null,
                     *       "status": "open",
                     *       "placement": "attached",
                     *       "quote": "1 December",
                     *       "suggested_text": null,
                     *       "suggested_format": null,
                     *       "author": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "messages": [
                     *         {
                     *           "uuid": "f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0",
                     *           "author": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "body": "Can we move this to Monday?",
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "edited_at": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Thread"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsCommentNotFound"];
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            413: components["responses"]["DocsBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editCommentMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
                message: components["parameters"]["MessageUuid"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["MessageBody"];
        responses: {
            /** @description The thread. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "uuid": "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e",
                     *       "kind": "comment",
                     *       "ref": null,
                     *       "status": "open",
                     *       "placement": "attached",
                     *       "quote": "1 December",
                     *       "suggested_text": null,
                     *       "suggested_format": null,
                     *       "author": {
                     *         "self": true,
                     *         "first_name": "Ada",
                     *         "last_name": "Lovelace",
                     *         "display_name": "Ada Lovelace"
                     *       },
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "messages": [
                     *         {
                     *           "uuid": "f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0",
                     *           "author": {
                     *             "self": true,
                     *             "first_name": "Ada",
                     *             "last_name": "Lovelace",
                     *             "display_name": "Ada Lovelace"
                     *           },
                     *           "body": "Can we move this to Monday?",
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "edited_at": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Thread"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsCommentNotFound"];
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            413: components["responses"]["DocsBodyTooLarge"];
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    deleteCommentMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                thread: components["parameters"]["ThreadUuid"];
                message: components["parameters"]["MessageUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; empty body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsCommentNotFound"];
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    uploadAttachment: {
        parameters: {
            query: {
                filename: string;
            };
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description The same bytes were uploaded before; that attachment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document_attachment",
                     *       "uuid": "e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9",
                     *       "document_uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "filename": "diagram.png",
                     *       "content_type": "image/png",
                     *       "byte_size": 48213,
                     *       "upload_status": "completed",
                     *       "width": 1280,
                     *       "height": 720,
                     *       "inline": true,
                     *       "markdown": "![diagram.png](/v1/documents/c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d/attachments/e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9)",
                     *       "created_at": "2026-11-20T14:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentAttachment"];
                };
            };
            /** @description The new attachment. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document_attachment",
                     *       "uuid": "e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9",
                     *       "document_uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "filename": "diagram.png",
                     *       "content_type": "image/png",
                     *       "byte_size": 48213,
                     *       "upload_status": "completed",
                     *       "width": 1280,
                     *       "height": 720,
                     *       "inline": true,
                     *       "markdown": "![diagram.png](/v1/documents/c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d/attachments/e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9)",
                     *       "created_at": "2026-11-20T14:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentAttachment"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description Refused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Over 100 MB; max_bytes is the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Refused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No large-upload slot is free (a body over 10 MB counts, as in a simple upload); retry after Retry-After. docs/documents-api.md § Limits */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                attachment: components["parameters"]["AttachmentUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attachment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "document_attachment",
                     *       "uuid": "e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9",
                     *       "document_uuid": "c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d",
                     *       "filename": "diagram.png",
                     *       "content_type": "image/png",
                     *       "byte_size": 48213,
                     *       "upload_status": "completed",
                     *       "width": 1280,
                     *       "height": 720,
                     *       "inline": true,
                     *       "markdown": "![diagram.png](/v1/documents/c4e8a1b2-5d6f-4a7b-9c8d-0e1f2a3b4c5d/attachments/e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9)",
                     *       "created_at": "2026-11-20T14:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentAttachment"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description Not uploaded yet */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            422: components["responses"]["DocsInvalidUuid"];
        };
    };
    downloadAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document; a malformed uuid is 422 invalid_uuid. */
                uuid: components["parameters"]["DocumentUuid"];
                attachment: components["parameters"]["AttachmentUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Raw bytes; Content-Type is the attachment's type, Content-Disposition carries its name. */
            200: {
                headers: {
                    "Content-Disposition": string;
                    "X-Content-Type-Options"?: "nosniff";
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description Not uploaded yet */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            422: components["responses"]["DocsInvalidUuid"];
        };
    };
    getEmail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description data.email_uuid of an email.received event. */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The email. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "email",
                     *       "uuid": "8f7e6d5c-4b3a-4291-8f7e-6d5c4b3a2910",
                     *       "mailbox_uuid": "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
                     *       "thread": {
                     *         "uuid": "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f"
                     *       },
                     *       "message_id": "<CAF3k9x2@mail.example.com>",
                     *       "in_reply_to": null,
                     *       "references": [
                     *         "<CAF2a1b7@mail.example.com>"
                     *       ],
                     *       "from": {
                     *         "name": "Acme Billing",
                     *         "address": "billing@acme.example"
                     *       },
                     *       "to": [
                     *         {
                     *           "name": "Ada Lovelace",
                     *           "address": "ada@example.com"
                     *         }
                     *       ],
                     *       "cc": [],
                     *       "subject": "Invoice 2026-114",
                     *       "date": "2026-11-20T14:05:00.000Z",
                     *       "received_at": "2026-11-20T14:05:00.000Z",
                     *       "labels": [
                     *         "inbox"
                     *       ],
                     *       "size_bytes": 4812,
                     *       "text": "Hello Ada,\n\nthe invoice for November is attached.\n",
                     *       "html": "<p>Hello Ada,</p><p>the invoice for November is attached.</p>",
                     *       "attachments": [
                     *         {
                     *           "filename": "invoice-2026-114.pdf",
                     *           "content_type": "application/pdf",
                     *           "size_bytes": 48213,
                     *           "content_id": null,
                     *           "disposition": "attachment"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Email"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
        };
    };
    listWebhookDestinations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destinations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "webhook_destination",
                     *           "uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *           "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *           "url": "https://hooks.example.com/folio",
                     *           "description": "Order events for the billing service",
                     *           "mailboxes": [
                     *             "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"
                     *           ],
                     *           "status": "active",
                     *           "disabled_reason": null,
                     *           "disabled_at": null,
                     *           "consecutive_failures": 0,
                     *           "previous_secret_expires_at": null,
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "updated_at": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: components["schemas"]["WebhookDestination"][];
                    };
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
        };
    };
    createWebhookDestination: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/folio",
                 *       "description": "Order events for the billing service",
                 *       "mailboxes": [
                 *         "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"
                 *       ]
                 *     }
                 */
                "application/json": {
                    url: string;
                    description?: string;
                    mailboxes?: string[];
                };
            };
        };
        responses: {
            /** @description The destination with signing_secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_destination",
                     *       "uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *       "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *       "url": "https://hooks.example.com/folio",
                     *       "description": "Order events for the billing service",
                     *       "mailboxes": [
                     *         "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"
                     *       ],
                     *       "status": "active",
                     *       "disabled_reason": null,
                     *       "disabled_at": null,
                     *       "consecutive_failures": 0,
                     *       "previous_secret_expires_at": null,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "signing_secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDestinationWithSecret"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            413: components["responses"]["DocsBodyTooLarge"];
            422: components["responses"]["WebhookTargetRefused"];
        };
    };
    getWebhookDestination: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_destination",
                     *       "uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *       "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *       "url": "https://hooks.example.com/folio",
                     *       "description": "Order events for the billing service",
                     *       "mailboxes": [
                     *         "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"
                     *       ],
                     *       "status": "active",
                     *       "disabled_reason": null,
                     *       "disabled_at": null,
                     *       "consecutive_failures": 0,
                     *       "previous_secret_expires_at": null,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDestination"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
        };
    };
    updateWebhookDestination: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Billing service, EU region"
                 *     }
                 */
                "application/json": {
                    url?: string;
                    description?: string;
                    mailboxes?: string[];
                };
            };
        };
        responses: {
            /** @description The destination. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_destination",
                     *       "uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *       "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *       "url": "https://hooks.example.com/folio",
                     *       "description": "Billing service, EU region",
                     *       "mailboxes": [
                     *         "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"
                     *       ],
                     *       "status": "active",
                     *       "disabled_reason": null,
                     *       "disabled_at": null,
                     *       "consecutive_failures": 0,
                     *       "previous_secret_expires_at": null,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDestination"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            413: components["responses"]["DocsBodyTooLarge"];
            422: components["responses"]["WebhookTargetRefused"];
        };
    };
    pauseWebhookDestination: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_destination",
                     *       "uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *       "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *       "url": "https://hooks.example.com/folio",
                     *       "description": "Order events for the billing service",
                     *       "mailboxes": [
                     *         "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"
                     *       ],
                     *       "status": "paused",
                     *       "disabled_reason": null,
                     *       "disabled_at": null,
                     *       "consecutive_failures": 0,
                     *       "previous_secret_expires_at": null,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDestination"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description The destination is not in the state this change starts from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    resumeWebhookDestination: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_destination",
                     *       "uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *       "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *       "url": "https://hooks.example.com/folio",
                     *       "description": "Order events for the billing service",
                     *       "mailboxes": [
                     *         "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"
                     *       ],
                     *       "status": "paused",
                     *       "disabled_reason": null,
                     *       "disabled_at": null,
                     *       "consecutive_failures": 0,
                     *       "previous_secret_expires_at": null,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDestination"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description The destination is not in the state this change starts from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    enableWebhookDestination: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_destination",
                     *       "uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *       "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *       "url": "https://hooks.example.com/folio",
                     *       "description": "Order events for the billing service",
                     *       "mailboxes": [
                     *         "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"
                     *       ],
                     *       "status": "paused",
                     *       "disabled_reason": null,
                     *       "disabled_at": null,
                     *       "consecutive_failures": 0,
                     *       "previous_secret_expires_at": null,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDestination"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description The destination is not in the state this change starts from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    revealWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secrets. */
            200: {
                headers: {
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_signing_secret",
                     *       "signing_secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                     *       "previous_signing_secret": null,
                     *       "previous_secret_expires_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSigningSecret"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination with its new signing_secret. */
            200: {
                headers: {
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_destination",
                     *       "uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *       "workspace_uuid": "1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9",
                     *       "url": "https://hooks.example.com/folio",
                     *       "description": "Order events for the billing service",
                     *       "mailboxes": [
                     *         "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"
                     *       ],
                     *       "status": "active",
                     *       "disabled_reason": null,
                     *       "disabled_at": null,
                     *       "consecutive_failures": 0,
                     *       "previous_secret_expires_at": "2026-11-27T09:30:00.000Z",
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "updated_at": "2026-11-26T09:30:00.000Z",
                     *       "signing_secret": "whsec_Qz7cV1bN4mX8kL2pR6tY0wE3sD5fG9hJ"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDestinationWithSecret"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
        };
    };
    getWebhookStats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Daily statistics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "day": "2026-11-26",
                     *           "attempts": 42,
                     *           "successes": 41,
                     *           "failures": 1,
                     *           "p50_ms": 184,
                     *           "p95_ms": 912
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: components["schemas"]["WebhookDailyStats"][];
                    };
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
        };
    };
    listWebhookAttempts: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
                event?: string;
            };
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of attempts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "webhook_attempt",
                     *           "delivery_id": "whdel_9a8b7c6d-5e4f-4a3b-9c1d-0e9f8a7b6c5d",
                     *           "event_id": "whevt_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
                     *           "round": 0,
                     *           "attempt": 1,
                     *           "outcome": "success",
                     *           "status_code": 200,
                     *           "error_class": null,
                     *           "response_time_ms": 184,
                     *           "started_at": "2026-11-26T09:30:00.000Z",
                     *           "finished_at": "2026-11-26T09:41:12.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookAttemptPage"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                state?: "waiting" | "running" | "done";
                limit?: number;
            };
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "webhook_delivery",
                     *           "destination_uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *           "event_id": "whevt_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
                     *           "round": 0,
                     *           "mailbox_uuid": "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
                     *           "workflow_id": "webhook-delivery-5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a-whevt_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e-0",
                     *           "state": "scheduled",
                     *           "attempts": 1,
                     *           "next_attempt_at": "2026-11-26T09:31:00.000Z",
                     *           "terminated_by": null,
                     *           "terminated_reason": null,
                     *           "created_at": "2026-11-20T14:05:00.000Z",
                     *           "finished_at": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: components["schemas"]["WebhookDelivery"][];
                    };
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
                /** @description The event id, whevt_<uuid>. */
                event: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery; its attempt is on its way. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_delivery",
                     *       "destination_uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *       "event_id": "whevt_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
                     *       "round": 0,
                     *       "mailbox_uuid": "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
                     *       "workflow_id": "webhook-delivery-5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a-whevt_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e-0",
                     *       "state": "scheduled",
                     *       "attempts": 1,
                     *       "next_attempt_at": "2026-11-26T09:31:00.000Z",
                     *       "terminated_by": null,
                     *       "terminated_reason": null,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "finished_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description Not waiting */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    terminateWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
                /** @description The event id, whevt_<uuid>. */
                event: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reason": "Replaced by a newer event"
                 *     }
                 */
                "application/json": {
                    reason: string;
                };
            };
        };
        responses: {
            /** @description The delivery, terminated_by `user:<uuid>`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_delivery",
                     *       "destination_uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *       "event_id": "whevt_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
                     *       "round": 0,
                     *       "mailbox_uuid": "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
                     *       "workflow_id": "webhook-delivery-5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a-whevt_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e-0",
                     *       "state": "terminated",
                     *       "attempts": 1,
                     *       "next_attempt_at": null,
                     *       "terminated_by": "ada@example.com",
                     *       "terminated_reason": "Replaced by a newer event",
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "finished_at": "2026-11-26T09:41:12.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description Already finished */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            413: components["responses"]["DocsBodyTooLarge"];
        };
    };
    sendWebhookTestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery of the new webhook.test event. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_delivery",
                     *       "destination_uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *       "event_id": "whevt_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
                     *       "round": 0,
                     *       "mailbox_uuid": "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
                     *       "workflow_id": "webhook-delivery-5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a-whevt_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e-0",
                     *       "state": "scheduled",
                     *       "attempts": 1,
                     *       "next_attempt_at": "2026-11-26T09:31:00.000Z",
                     *       "terminated_by": null,
                     *       "terminated_reason": null,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "finished_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description The destination is not active */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    resendWebhookEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: components["parameters"]["DestinationUuid"];
                /**
                 * @description The event id, whevt_<uuid> (or a bare uuid).
                 *     Folio extension: not in the spec (docs/extensions.md).
                 */
                event: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery of the new round. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_delivery",
                     *       "destination_uuid": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *       "event_id": "whevt_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
                     *       "round": 0,
                     *       "mailbox_uuid": "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
                     *       "workflow_id": "webhook-delivery-5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a-whevt_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e-0",
                     *       "state": "scheduled",
                     *       "attempts": 1,
                     *       "next_attempt_at": "2026-11-26T09:31:00.000Z",
                     *       "terminated_by": null,
                     *       "terminated_reason": null,
                     *       "created_at": "2026-11-20T14:05:00.000Z",
                     *       "finished_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["DocsBadBody"];
            401: components["responses"]["DocsUnauthorized"];
            403: components["responses"]["DocsForbidden"];
            404: components["responses"]["DocsNotFound"];
            /** @description Not active, or a delivery of the event is in flight */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
}
