import { Injectable, Logger } from '@nestjs/common';
import { Topics } from '@parley/contracts';
import { KafkaConnection } from '@parley/kafka';

/**
 * Whether every provider report (status callbacks of every provider, as the gateway received them: `whatsapp.webhook`)
 * that arrived before a moment has been applied. A send with an unknown outcome is repeated when no status named it
 * within the wait; a status that came in time but still waits in Kafka (this service's consumer behind, under load or
 * after an outage) names it all the same, and judging by the clock alone would send the message twice.
 */
@Injectable()
export class StatusReportsRead {
  private readonly logger = new Logger(StatusReportsRead.name);
  /** Every report that arrived before this (epoch ms) is known applied: later questions about earlier moments ask nobody. */
  private readBefore = 0;
  /** The broker is asked once at a time, however many rows wonder (a backlog of unknown outcomes wonders together). */
  private asking?: Promise<void>;

  constructor(private readonly kafka: KafkaConnection) {}

  /** True once every report that arrived before `at` is applied; false while some may still be waiting (or the broker cannot say). */
  async allBefore(at: Date): Promise<boolean> {
    if (at.getTime() <= this.readBefore) return true;
    this.asking ??= this.ask(at).finally(() => (this.asking = undefined));
    await this.asking;
    return at.getTime() <= this.readBefore;
  }

  private async ask(at: Date): Promise<void> {
    try {
      if (await this.kafka.handledEventsBefore(Topics.WhatsappWebhook, at)) this.readBefore = Math.max(this.readBefore, at.getTime());
    } catch (err) {
      this.logger.warn(`could not tell whether the provider reports are read up to ${at.toISOString()}: ${String(err)}`);
    }
  }
}
