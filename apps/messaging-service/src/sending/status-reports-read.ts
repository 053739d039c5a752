import { Injectable, Logger } from '@nestjs/common';
import { Topics } from '@parley/contracts';
import { KafkaConnection } from '@parley/kafka';

const WARN_EVERY_MS = 30_000;

/**
 * Whether every provider report (status callbacks of every provider, as the gateway received them: `whatsapp.webhook`)
 * that arrived before a moment has been applied. A send with an unknown outcome is repeated when no status named it
 * within the wait; a status that came in time but still waits in Kafka (this service's consumer behind, under load or
 * after an outage) names it all the same, and judging by the clock alone would send the message twice.
 */
@Injectable()
export class StatusReportsRead {
  private readonly logger = new Logger(StatusReportsRead.name);
  /** When the broker last could not say (epoch ms): a backlog of rows shares one failed look, and one warning will do. */
  private warnedAt = 0;

  constructor(private readonly kafka: KafkaConnection) {}

  /**
   * True once every report that arrived before `at` is applied; false while some may still be waiting (or the broker
   * cannot say). The connection remembers what it learned and asks the broker once at a time however many rows wonder.
   */
  async allBefore(at: Date): Promise<boolean> {
    try {
      return await this.kafka.handledEventsBefore(Topics.WhatsappWebhook, at);
    } catch (err) {
      if (Date.now() - this.warnedAt < WARN_EVERY_MS) return false;
      this.warnedAt = Date.now();
      this.logger.warn(`could not tell whether the provider reports are read up to ${at.toISOString()}: ${String(err)}`);
      return false;
    }
  }
}
