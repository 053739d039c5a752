import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A media file at the sandbox: uploaded by a business to send (`outbound`), or sent by a customer (`inbound`). */
@Entity({ name: 'media' })
export class MediaEntity {
  /** A Graph media id (digits). */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'phone_number_id', type: 'text' })
  phoneNumberId!: string;

  @Column({ type: 'text' })
  direction!: 'outbound' | 'inbound';

  @Column({ name: 'mime_type', type: 'text' })
  mimeType!: string;

  @Column({ type: 'text' })
  sha256!: string;

  @Column({ type: 'integer' })
  size!: number;

  @Column({ type: 'text', nullable: true })
  filename!: string | null;

  @Column({ type: 'bytea' })
  data!: Buffer;

  /** Failure injection: downloads of this file that still answer 500 before one succeeds. */
  @Column({ name: 'failures_left', type: 'integer', default: 0 })
  failuresLeft!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
