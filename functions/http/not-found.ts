// Entry point: API Gateway's $default route. Any request no route matches gets the contract's 404.
import { httpHandler } from '../../lib/api/handler';
import { declareRoutes } from '../../lib/http/route-contract';

export const handler = httpHandler(declareRoutes('notFound', {}), {});
