// The provider of the stack's Amazon Chime SDK voice resources (CloudFormation has no native type for
// them): the SIP media application, the phone number (one the account owns already, or one ordered in
// an area code) and the SIP rule that sends the number's calls to the application. A Lambda-backed
// custom resource: CloudFormation invokes it with the request, and it answers on the request's
// pre-signed ResponseURL. A number it ordered is released with the stack; a number it was given is not.
import {
  ChimeSDKVoiceClient,
  CreatePhoneNumberOrderCommand,
  CreateSipMediaApplicationCommand,
  CreateSipRuleCommand,
  DeletePhoneNumberCommand,
  DeleteSipMediaApplicationCommand,
  DeleteSipRuleCommand,
  GetPhoneNumberOrderCommand,
  SearchAvailablePhoneNumbersCommand,
  UpdateSipMediaApplicationCommand,
  UpdateSipRuleCommand,
} from '@aws-sdk/client-chime-sdk-voice';

interface CustomResourceRequest {
  RequestType: 'Create' | 'Update' | 'Delete';
  ResponseURL: string;
  StackId: string;
  RequestId: string;
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceProperties: Record<string, string>;
}

interface Outcome {
  physicalId: string;
  data?: Record<string, string>;
}

const chime = new ChimeSDKVoiceClient({});
/** A number ordered here is released on delete; its physical id says so. */
const ORDERED = 'ordered:';
const ORDER_WAIT_MS = 10 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sipMediaApplication(request: CustomResourceRequest): Promise<Outcome> {
  const { Name, LambdaArn } = request.ResourceProperties;
  const region = process.env.AWS_REGION!;
  if (request.RequestType === 'Delete') {
    await chime.send(new DeleteSipMediaApplicationCommand({ SipMediaApplicationId: request.PhysicalResourceId }));
    return { physicalId: request.PhysicalResourceId! };
  }
  if (request.RequestType === 'Update') {
    await chime.send(
      new UpdateSipMediaApplicationCommand({
        SipMediaApplicationId: request.PhysicalResourceId,
        Name,
        Endpoints: [{ LambdaArn }],
      }),
    );
    return { physicalId: request.PhysicalResourceId!, data: { SipMediaApplicationId: request.PhysicalResourceId! } };
  }
  const created = await chime.send(new CreateSipMediaApplicationCommand({ AwsRegion: region, Name, Endpoints: [{ LambdaArn }] }));
  const id = created.SipMediaApplication!.SipMediaApplicationId!;
  return { physicalId: id, data: { SipMediaApplicationId: id } };
}

async function phoneNumber(request: CustomResourceRequest): Promise<Outcome> {
  const { PhoneNumber, AreaCode } = request.ResourceProperties;
  if (request.RequestType === 'Delete') {
    const physicalId = request.PhysicalResourceId ?? '';
    if (physicalId.startsWith(ORDERED)) await chime.send(new DeletePhoneNumberCommand({ PhoneNumberId: physicalId.slice(ORDERED.length) }));
    return { physicalId };
  }
  // A change of number or area code is a new resource: CloudFormation deletes the old one after.
  if (PhoneNumber) return { physicalId: PhoneNumber, data: { PhoneNumber } };
  if (request.RequestType === 'Update' && request.PhysicalResourceId?.startsWith(ORDERED))
    return { physicalId: request.PhysicalResourceId, data: { PhoneNumber: request.PhysicalResourceId.slice(ORDERED.length) } };
  const found = await chime.send(
    new SearchAvailablePhoneNumbersCommand({ AreaCode, Country: 'US', PhoneNumberType: 'Local', MaxResults: 1 }),
  );
  const number = found.E164PhoneNumbers?.[0];
  if (!number) throw new Error(`no phone number is available in area code ${AreaCode}`);
  const order = await chime.send(
    new CreatePhoneNumberOrderCommand({ ProductType: 'SipMediaApplicationDialIn', E164PhoneNumbers: [number] }),
  );
  const orderId = order.PhoneNumberOrder!.PhoneNumberOrderId!;
  for (const until = Date.now() + ORDER_WAIT_MS; Date.now() < until; await sleep(5_000)) {
    const { PhoneNumberOrder } = await chime.send(new GetPhoneNumberOrderCommand({ PhoneNumberOrderId: orderId }));
    if (PhoneNumberOrder?.Status === 'Successful') return { physicalId: `${ORDERED}${number}`, data: { PhoneNumber: number } };
    if (PhoneNumberOrder?.Status === 'Failed' || PhoneNumberOrder?.Status === 'Cancelled')
      throw new Error(`the order of ${number} ended ${PhoneNumberOrder.Status}`);
  }
  throw new Error(`the order of ${number} did not complete within ${ORDER_WAIT_MS / 60_000} minutes`);
}

async function sipRule(request: CustomResourceRequest): Promise<Outcome> {
  const { Name, PhoneNumber, SipMediaApplicationId } = request.ResourceProperties;
  const targets = [{ SipMediaApplicationId, Priority: 1, AwsRegion: process.env.AWS_REGION! }];
  if (request.RequestType === 'Delete') {
    // A rule is deleted disabled only.
    await chime.send(new UpdateSipRuleCommand({ SipRuleId: request.PhysicalResourceId, Name, Disabled: true }));
    await chime.send(new DeleteSipRuleCommand({ SipRuleId: request.PhysicalResourceId }));
    return { physicalId: request.PhysicalResourceId! };
  }
  if (request.RequestType === 'Update') {
    await chime.send(
      new UpdateSipRuleCommand({ SipRuleId: request.PhysicalResourceId, Name, Disabled: false, TargetApplications: targets }),
    );
    return { physicalId: request.PhysicalResourceId! };
  }
  const created = await chime.send(
    new CreateSipRuleCommand({
      Name,
      TriggerType: 'ToPhoneNumber',
      TriggerValue: PhoneNumber,
      Disabled: false,
      TargetApplications: targets,
    }),
  );
  return { physicalId: created.SipRule!.SipRuleId! };
}

const KINDS: Record<string, (request: CustomResourceRequest) => Promise<Outcome>> = {
  SipMediaApplication: sipMediaApplication,
  PhoneNumber: phoneNumber,
  SipRule: sipRule,
};

async function reply(request: CustomResourceRequest, status: 'SUCCESS' | 'FAILED', outcome: Outcome, reason?: string) {
  const body = JSON.stringify({
    Status: status,
    Reason: reason?.slice(0, 3_000) ?? 'done',
    PhysicalResourceId: outcome.physicalId,
    StackId: request.StackId,
    RequestId: request.RequestId,
    LogicalResourceId: request.LogicalResourceId,
    Data: outcome.data ?? {},
  });
  const res = await fetch(request.ResponseURL, { method: 'PUT', body, headers: { 'content-type': '' } });
  if (!res.ok) throw new Error(`CloudFormation refused the answer: ${res.status}`);
}

export async function handler(request: CustomResourceRequest): Promise<void> {
  const kind = KINDS[request.ResourceProperties.Kind];
  try {
    if (!kind) throw new Error(`unknown kind ${request.ResourceProperties.Kind}`);
    await reply(request, 'SUCCESS', await kind(request));
  } catch (error) {
    // A failed create has no resource: its physical id must still be given, and a delete of it is a no-op.
    const physicalId = request.PhysicalResourceId ?? `failed-${request.RequestId}`;
    if (request.RequestType === 'Delete' && physicalId.startsWith('failed-')) return reply(request, 'SUCCESS', { physicalId });
    await reply(request, 'FAILED', { physicalId }, (error as Error).message);
  }
}
