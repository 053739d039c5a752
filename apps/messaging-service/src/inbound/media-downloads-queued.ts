import { Injectable } from '@nestjs/common';
import { QueueSignal } from '@parley/service-kit';

/**
 * Media downloads were queued (a customer's media message): wakes this instance's MediaDownloadWorker. A signal, not
 * the worker itself, because the worker announces through InboundMessagesService, which queues the downloads.
 */
@Injectable()
export class MediaDownloadsQueued extends QueueSignal {}
