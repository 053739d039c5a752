import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A business number the sandbox serves: allocated from its block, given explicitly, or registered by embedded signup. */
@Entity({ name: 'phone_numbers' })
export class PhoneNumberEntity {
  @PrimaryColumn({ name: 'phone_number_id', type: 'text' })
  phoneNumberId!: string;

  /** E.164 with its `+`; unique. */
  @Column({ name: 'phone_number', type: 'text' })
  phoneNumber!: string;

  @Column({ name: 'waba_id', type: 'text' })
  wabaId!: string;

  @Column({ name: 'verified_name', type: 'text' })
  verifiedName!: string;

  /** Position in the sandbox's number block (so allocation skips it); null for a number outside the block. */
  @Column({ name: 'block_slot', type: 'int', nullable: true })
  blockSlot!: number | null;

  /** Set by `POST /{version}/{phone_number_id}/register`. */
  @Column({ name: 'registered_at', type: 'timestamptz', nullable: true })
  registeredAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
