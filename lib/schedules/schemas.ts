// Input schemas of schedules (api-v4.md "Schedule").
import * as z from 'zod';
import { metaInput, requiredText } from '../http/fields';

export const createScheduleInput = z.object({ name: requiredText, meta: metaInput.optional() });
export const updateScheduleInput = z.object({ name: requiredText.optional(), meta: metaInput.optional() });
