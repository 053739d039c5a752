import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PhoneNumberEntity } from './phone-number.entity';

/** The business numbers the sandbox serves: a block of numbers, each in its slot. */
@Injectable()
export class NumbersStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Oldest first. */
  list(): Promise<PhoneNumberEntity[]> {
    return this.db.getRepository(PhoneNumberEntity).find({ order: { createdAt: 'ASC', phoneNumberId: 'ASC' } });
  }

  findById(phoneNumberId: string): Promise<PhoneNumberEntity | null> {
    return this.db.getRepository(PhoneNumberEntity).findOneBy({ phoneNumberId });
  }

  /** By the number in E.164. */
  findByNumber(phoneNumber: string): Promise<PhoneNumberEntity | null> {
    return this.db.getRepository(PhoneNumberEntity).findOneBy({ phoneNumber });
  }

  async setRegistered(phoneNumberId: string, at: Date): Promise<void> {
    await this.db.getRepository(PhoneNumberEntity).update({ phoneNumberId }, { registeredAt: at });
  }

  /** The lowest slot of a block of `size` no number holds; null when all are taken. */
  async lowestFreeSlot(size: number): Promise<number | null> {
    const [free] = (await this.db.query(
      `SELECT s AS slot FROM generate_series(0, $1::int - 1) s
        WHERE NOT EXISTS (SELECT 1 FROM phone_numbers n WHERE n.block_slot = s) ORDER BY s LIMIT 1`,
      [size],
    )) as { slot: number }[];
    return free?.slot ?? null;
  }

  /** Inserts, never saves: a unique violation when the id, the number or the slot is taken (save() would update the holder). */
  async insert(number: PhoneNumberEntity): Promise<void> {
    await this.db.getRepository(PhoneNumberEntity).insert(number);
  }
}
