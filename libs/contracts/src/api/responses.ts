import type { AgentTestRecord, AgentTestRunRecord } from '../events/agent-tests';
import type { AgentRecord } from '../events/agents';
import type { CompanyRecord, ContactActivityRecord, ContactRecord } from '../events/contacts';
import type { PipelineRecord } from '../events/deals';
import type { DocumentImportRecord, DocumentRecord } from '../events/documents';
import type { AppointmentRecord } from '../events/engagement';
import type { KnowledgeGapRecord } from '../events/knowledge-gaps';
import type { TemplateRecord } from '../events/templates';
import type {
  ApiKeyRecord,
  CreatedAccount,
  CreatedApiKey,
  InvitationRecord,
  InvitedMember,
  IssuedToken,
  MemberRecord,
  OAuthErrorBody,
  RoleRecord,
  SignedInMemberRecord,
  TenantPlanRecord,
  UsageRecord,
} from '../identity';
import type { ProblemDetails } from '../problem';
import type { AgentVersionRecord, AgentVersionSummary } from '../rpc/agents.rpc';
import type {
  CostEstimateRecord,
  InvoiceRecord,
  LedgerTransactionRecord,
  MonthUsageRecord,
  PaymentWebhookReceipt,
  PriceRecord,
  TopUpRecord,
  UsageDayRecord,
  WalletView,
} from '../rpc/billing.rpc';
import type { ContactImportJob } from '../rpc/crm.rpc';
import type { DealView } from '../rpc/deals.rpc';
import type { ChannelView, ConnectedChannelRecord, MessageRecord, SendResult } from '../rpc/messaging.rpc';
import type { ConversationReportRow } from '../rpc/reports.rpc';
import type {
  AgentAnalytics,
  AgentTestResult,
  CalendarFeedRecord,
  CannedReplyRecord,
  ConversationNoteRecord,
  ConversationRecord,
  ConversationTurnRecord,
  ConversationView,
  ListedLead,
  LlmSettingsInUse,
  LlmSettingsRecord,
  MessageFeedbackRecord,
} from '../rpc/responder.rpc';
import type { Page } from '../rpc/rpc-shapes';
import type { PresenceRecord, RoutingRuleRecord, TeamRecord } from '../rpc/teams.rpc';
import type {
  CreatedWebhookRecord,
  DeliveryRetryAccepted,
  WebhookDeliveryDetail,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
  WebhookReplayAccepted,
  WebhookSecretRecord,
  WebhookTestAccepted,
} from '../rpc/webhooks.rpc';

/*
 * The one description of the public API's answers. Each property of `ApiResponses` is an OpenAPI component of the
 * gateway's `/openapi.json` (and a type of the generated client, `@parley/api-client`), named as the routes' `@ApiRoute`
 * name it; its type is what the gateway's route answers. `npm run contracts:generate` turns this interface into
 * `api/responses.schema.json` (JSON Schema, draft-07; a unit test fails while it differs), which the gateway converts to
 * OpenAPI 3.0.
 *
 * The types' JSDoc text becomes the descriptions. What TypeScript cannot say is added by tags that only this generation
 * reads (the event schemas, generated from many of the same records, must stay as they were recorded):
 *   @idPrefix ctc       a public id `ctc_…` (CONTRACT.md §1): its pattern and an example; on a string array, its items
 *   @apiType integer    a whole number
 *   @apiFormat <name>   `date`, `date-time`, `uri`, `email`; or this API's own `money` (a decimal string with six
 *                       decimals, CONTRACT.md §16), `signed-money` (the same, maybe negative) and `currency` (ISO 4217)
 *   @apiSchema {…}      other JSON Schema keywords, as JSON5 (`{pattern: '^whsec_'}`, `{minimum: 1, maximum: 5}`)
 *   @apiDescription …   the description in the API, where the record's own (shared with an event) says something else
 * and by one naming rule: a string property called `at` or ending in `_at` is a time (`date-time`). The few texts and
 * patterns made from the services' constants (the permissions, the problem types, the channel kinds) are added by the
 * generation (`DERIVED` in api-schemas/generate.ts).
 */
export interface ApiResponses {
  ProblemDetails: ProblemDetails;
  OAuthError: OAuthErrorBody;
  CreatedAccount: CreatedAccount;
  AccessToken: IssuedToken;
  ApiKey: ApiKeyRecord;
  ApiKeyPage: Page<ApiKeyRecord>;
  CreatedApiKey: CreatedApiKey;
  Usage: UsageRecord;
  TenantPlan: TenantPlanRecord;

  TeamMember: MemberRecord;
  TeamMemberPage: Page<MemberRecord>;
  InvitedMember: InvitedMember;
  Invitation: InvitationRecord;
  SignedInMember: SignedInMemberRecord;
  TeamRoles: { data: RoleRecord[] };

  Agent: AgentRecord;
  AgentPage: Page<AgentRecord>;
  AgentVersionSummary: AgentVersionSummary;
  AgentVersionSummaryPage: Page<AgentVersionSummary>;
  AgentVersion: AgentVersionRecord;
  AgentTestResult: AgentTestResult;
  AgentAnalytics: AgentAnalytics;
  Document: DocumentRecord;
  DocumentPage: Page<DocumentRecord>;
  DocumentImport: DocumentImportRecord;
  KnowledgeGap: KnowledgeGapRecord;
  KnowledgeGapPage: Page<KnowledgeGapRecord>;
  AgentTest: AgentTestRecord;
  AgentTestPage: Page<AgentTestRecord>;
  AgentTestRun: AgentTestRunRecord;

  SendResult: SendResult;
  Message: MessageRecord;
  MessagePage: Page<MessageRecord>;
  Channel: ChannelView;
  ChannelPage: Page<ChannelView>;
  ConnectedChannel: ConnectedChannelRecord;
  Template: TemplateRecord;
  TemplatePage: Page<TemplateRecord>;

  Webhook: WebhookEndpointRecord;
  WebhookPage: Page<WebhookEndpointRecord>;
  CreatedWebhook: CreatedWebhookRecord;
  WebhookSecret: WebhookSecretRecord;
  WebhookDelivery: WebhookDeliveryRecord;
  WebhookDeliveryPage: Page<WebhookDeliveryRecord>;
  WebhookDeliveryDetail: WebhookDeliveryDetail;
  TestEventAccepted: WebhookTestAccepted;
  RetryAccepted: DeliveryRetryAccepted;
  ReplayAccepted: WebhookReplayAccepted;

  Conversation: ConversationView;
  ConversationPage: Page<ConversationView>;
  ConversationDetail: ConversationRecord;
  ConversationMessage: ConversationTurnRecord;
  ConversationNote: ConversationNoteRecord;
  MessageFeedback: MessageFeedbackRecord;
  CannedReply: CannedReplyRecord;
  CannedReplyPage: Page<CannedReplyRecord>;
  Lead: ListedLead;
  LeadPage: Page<ListedLead>;
  Appointment: AppointmentRecord;
  AppointmentPage: Page<AppointmentRecord>;
  CalendarFeed: CalendarFeedRecord;

  Team: TeamRecord;
  TeamPage: Page<TeamRecord>;
  RoutingRule: RoutingRuleRecord;
  RoutingRules: {
    /** In order: the first whose every condition holds picks the team; none → the oldest team. */
    data: RoutingRuleRecord[];
  };
  Presence: PresenceRecord;
  PresenceList: { data: PresenceRecord[] };
  ConversationReport: { data: ConversationReportRow[] };

  Contact: ContactRecord;
  ContactPage: Page<ContactRecord>;
  ContactActivity: ContactActivityRecord;
  ContactActivityPage: Page<ContactActivityRecord>;
  ContactImport: ContactImportJob;
  Company: CompanyRecord;
  CompanyPage: Page<CompanyRecord>;
  Pipeline: PipelineRecord;
  PipelineList: {
    /** The default pipeline first, then by age. */
    data: PipelineRecord[];
  };
  Deal: DealView;
  DealPage: Page<DealView>;

  Price: PriceRecord;
  PriceList: { data: PriceRecord[] };
  Wallet: WalletView;
  MonthUsage: MonthUsageRecord;
  CostEstimate: CostEstimateRecord;
  UsageDay: UsageDayRecord;
  BillingUsage: { data: UsageDayRecord[] };
  LedgerTransaction: LedgerTransactionRecord;
  LedgerTransactionPage: Page<LedgerTransactionRecord>;
  TopUp: TopUpRecord;
  Invoice: InvoiceRecord;
  InvoicePage: Page<InvoiceRecord>;
  PaymentWebhookReceived: PaymentWebhookReceipt;
  LlmSettings: LlmSettingsRecord;
  LlmSettingsInUse: LlmSettingsInUse;
}

export type ApiResponseName = keyof ApiResponses;
