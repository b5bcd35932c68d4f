// The routes of the `automations` function (functions/http/automations.ts), earlier interface only.
import { LogEarlier } from '../logs/schemas';
import { declareRoutes } from '../http/route-contract';
import { ADMIN_ONLY, standardRoutes } from '../http/standard-routes';
import { AutomationEarlier, createAutomationInput, updateAutomationInput } from './schemas';

export const automationRoutes = declareRoutes('automations', {
  ...standardRoutes('/automation', {
    tag: 'Automations (earlier)',
    noun: 'automation',
    plural: 'automations',
    item: AutomationEarlier,
    create: createAutomationInput,
    update: updateAutomationInput,
    form: false,
    writers: { create: ADMIN_ONLY, update: ADMIN_ONLY, delete: ADMIN_ONLY },
    descriptions: {
      create:
        'settings is YAML with url and method (required), headers, params, data and auth {username, password}; text values may be Handlebars templates over the alert. Shown with the auth password replaced by ********; saving the marker back keeps the stored password.',
    },
  }),
  run: {
    method: 'POST',
    path: '/automation/{id}/run',
    summary: 'Run an automation',
    description:
      'Performs its request now (10 s timeout) and answers the log of the run: status code, duration and an excerpt of the response. A target that resolves to a loopback, private, link-local or metadata address is refused (400, logged, nothing sent) unless the deployment sets ALLOW_PRIVATE_AUTOMATION_TARGETS=true. A disabled automation is a 409. Account admins only.',
    tag: 'Automations (earlier)',
    success: [{ status: 200, description: 'The log of the run', schema: LogEarlier }],
    errors: [400, 401, 403, 404, 409],
  },
});
