import type { ApiResponse } from './request';

export const ok = (body: unknown): ApiResponse => ({ status: 200, body });
export const created = (body: unknown): ApiResponse => ({ status: 201, body });
export const accepted = (body: unknown): ApiResponse => ({ status: 202, body });
export const noContent = (): ApiResponse => ({ status: 204 });
