// Database errors that mean a client mistake, mapped once by SQLSTATE and constraint name (errors.ts uses it).
import type { AppError } from '../../domain/errors.js';
import { invalidUploadStatus, nameTaken } from '../../domain/drive/errors.js';

const UNIQUE_VIOLATION = '23505';

const UNIQUE_CONSTRAINTS: Record<string, () => AppError> = {
  drive_items_live_name_in_folder: nameTaken,
  drive_items_live_name_at_root: nameTaken,
  drive_file_versions_one_staged: () =>
    invalidUploadStatus('A replacement is already in flight for this file.'),
};

export function constraintError(error: unknown): AppError | undefined {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  if (code === UNIQUE_VIOLATION && constraint) return UNIQUE_CONSTRAINTS[constraint]?.();
  return undefined;
}
