import { Injectable, Logger } from '@nestjs/common';
import type { InboundMedia } from '@parley/contracts';
import { BackgroundWorker, WorkerLoop } from '@parley/service-kit';
import { ChannelsService } from '../channels/channels.service';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { MediaService } from '../media/media.service';
import { downloadProviderMedia } from '../media/provider-media-download';
import { InboundMessagesService } from './inbound-messages.service';
import { MediaDownloadsQueued } from './media-downloads-queued';
import { MediaDownloadsStore, type ClaimedDownload } from './media-downloads.store';

/** Downloads one attempt may take before the message is announced without its file. */
export const MAX_DOWNLOAD_ATTEMPTS = 8;
const BATCH = 8;
/** Looks for downloads no wake-up announced: queued by another instance, or left by one that died mid-download. */
const SWEEP_MS = 5_000;

/**
 * A customer's file is downloaded from the provider (with the channel's token) into the media store, then the
 * message is announced on `message.inbound` with `media` (CONTRACT.md §13). A failed download is retried with
 * back-off (MEDIA_DOWNLOAD_RETRY_MS doubling) from the durable queue; other messages of the conversation are not held
 * up meanwhile. After MAX_DOWNLOAD_ATTEMPTS the message is announced with `media: null` (its text stand-in remains).
 */
@Injectable()
export class MediaDownloadWorker extends BackgroundWorker {
  private readonly logger = new Logger(MediaDownloadWorker.name);
  protected readonly loop = new WorkerLoop({
    name: 'media downloads',
    pass: async () => ((await this.pass()) > 0 ? 'more' : this.downloads.nextDueInMs()),
    sweepMs: SWEEP_MS,
    minSleepMs: 50,
    // a database that is away is asked again soon, then less and less often
    retryPauseMs: 200,
    maxRetryPauseMs: 5_000,
    logger: this.logger,
  });

  constructor(
    private readonly downloads: MediaDownloadsStore,
    private readonly channels: ChannelsService,
    private readonly media: MediaService,
    private readonly inbound: InboundMessagesService,
    private readonly config: MessagingServiceConfig,
    queued: MediaDownloadsQueued,
  ) {
    super();
    queued.onQueued(() => this.wake());
  }

  /** Works one claim of due downloads; answers how many it took. */
  private async pass(): Promise<number> {
    const claimed = await this.downloads.claim(BATCH);
    await Promise.all(claimed.map((item) => this.work(item)));
    return claimed.length;
  }

  private async work(item: ClaimedDownload): Promise<void> {
    const channel = await this.channels.findById(item.channelId);
    const sending = channel && channel.tenantId === item.tenantId ? await this.channels.findForSend(item.tenantId, { channelId: item.channelId }) : null;
    if (!channel || !sending) {
      // The number was disconnected meanwhile: no token to download with.
      await this.settle(item, null, 'the channel is no longer connected');
      return;
    }
    const file = item.inbound.media!;
    let media: InboundMedia;
    try {
      const downloaded = await downloadProviderMedia(sending.sender, file.providerMediaId, {
        graphBaseUrl: this.config.GRAPH_API_BASE_URL,
        graphVersion: this.config.GRAPH_API_VERSION,
        sandboxUrl: this.config.SANDBOX_URL,
        d360BaseUrl: this.config.D360_BASE_URL,
      });
      const stored = await this.media.storeBytes(item.tenantId, downloaded.data, file.mimeType !== 'application/octet-stream' ? file.mimeType : downloaded.mimeType, file.filename);
      media = { id: stored.id, mime_type: stored.mime_type, size: stored.size, caption: file.caption };
    } catch (err) {
      if (item.attempts < MAX_DOWNLOAD_ATTEMPTS) {
        const delayMs = this.config.MEDIA_DOWNLOAD_RETRY_MS * 2 ** (item.attempts - 1);
        this.logger.warn(`download of ${file.providerMediaId} (message ${item.messageId}) failed, attempt ${item.attempts}/${MAX_DOWNLOAD_ATTEMPTS}; again in ${delayMs} ms: ${String(err)}`);
        await this.downloads.retryLater(item.messageId, delayMs, String(err));
        return;
      }
      await this.settle(item, null, String(err));
      return;
    }
    await this.settle(item, media);
  }

  /** Announces the message (with its file, or without when given up on) and takes the row off the queue. */
  private async settle(item: ClaimedDownload, media: InboundMedia | null, reason?: string): Promise<void> {
    if (!media) this.logger.warn(`announcing message ${item.messageId} without its file: ${reason}`);
    const channel = await this.channels.findById(item.channelId);
    if (channel && channel.tenantId === item.tenantId) await this.inbound.announceWithMedia(channel, item.inbound, item.receivedAt, item.messageId, media, item.requestId);
    await this.downloads.done(item.messageId);
  }
}
