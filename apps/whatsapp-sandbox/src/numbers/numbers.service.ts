import { Injectable } from '@nestjs/common';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { QueryFailedError } from 'typeorm';
import { digitsOf, newGraphId } from '../cloud-api/ids';
import { NUMBER_BLOCK_SIZE, blockNumber, blockSlot } from './number-block';
import { toNumberRecord, type SandboxNumberRecord } from './numbers.mapper';
import { NumbersStore } from './numbers.store';
import { PhoneNumberEntity } from './phone-number.entity';

const UNIQUE_VIOLATION = '23505';
const ALLOCATION_ATTEMPTS = 10;
export const DEFAULT_VERIFIED_NAME = 'Sandbox Business';

const isUniqueViolation = (err: unknown) => err instanceof QueryFailedError && (err as { code?: string }).code === UNIQUE_VIOLATION;

/**
 * The business numbers the sandbox serves. Numbers never change once created (only `registered_at` is set), so
 * lookups on the hot send path are cached in memory.
 */
@Injectable()
export class NumbersService {
  private readonly byId = new Map<string, PhoneNumberEntity>();

  constructor(private readonly numbers: NumbersStore) {}

  /** `POST /_sandbox/numbers`: the given number (created once, then returned as is) or the next free one of the block. */
  async provision(phoneNumber?: string): Promise<{ created: boolean; number: SandboxNumberRecord }> {
    if (phoneNumber === undefined) return { created: true, number: toNumberRecord(await this.allocate(newGraphId())) };
    const existing = await this.findByNumber(phoneNumber);
    if (existing) return { created: false, number: toNumberRecord(existing) };
    try {
      return { created: true, number: toNumberRecord(await this.insert(newGraphId(), phoneNumber)) };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Provisioned concurrently by another request: answer with that one.
      const raced = await this.findByNumber(phoneNumber);
      if (!raced) throw err;
      return { created: false, number: toNumberRecord(raced) };
    }
  }

  async list(): Promise<SandboxNumberRecord[]> {
    const rows = await this.numbers.list();
    return rows.map(toNumberRecord);
  }

  async findById(phoneNumberId: string): Promise<PhoneNumberEntity | null> {
    const cached = this.byId.get(phoneNumberId);
    if (cached) return cached;
    const found = await this.numbers.findById(phoneNumberId);
    if (found) this.byId.set(found.phoneNumberId, found);
    return found;
  }

  /** Finds a number by its digits, however it is written (`+1 201-555-0100`, `12015550100`). */
  async findByNumber(phoneNumber: string): Promise<PhoneNumberEntity | null> {
    const digits = digitsOf(phoneNumber);
    if (!digits) return null;
    return this.numbers.findByNumber(`+${digits}`);
  }

  /**
   * Embedded signup's `register`: marks the number registered; an id the sandbox has never seen gets a number of
   * the block, so the freshly connected channel can send and receive at once.
   */
  async register(phoneNumberId: string): Promise<PhoneNumberEntity> {
    const number = (await this.findById(phoneNumberId)) ?? (await this.allocate(phoneNumberId));
    if (!number.registeredAt) {
      number.registeredAt = new Date();
      await this.numbers.setRegistered(phoneNumberId, number.registeredAt);
    }
    return number;
  }

  /** Takes the lowest free slot of the block; a race for the same slot (unique index) is retried with the next one. */
  private async allocate(phoneNumberId: string): Promise<PhoneNumberEntity> {
    for (let attempt = 0; attempt < ALLOCATION_ATTEMPTS; attempt++) {
      const free = await this.numbers.lowestFreeSlot(NUMBER_BLOCK_SIZE);
      if (free === null) {
        throw new ProblemException(problem(409, 'https://parley.dev/problems/sandbox-numbers-exhausted', 'Conflict', `All ${NUMBER_BLOCK_SIZE} sandbox numbers are taken.`));
      }
      try {
        return await this.insert(phoneNumberId, blockNumber(free));
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        const raced = await this.findById(phoneNumberId);
        if (raced) return raced; // the same id was registered concurrently
      }
    }
    throw new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'Could not allocate a sandbox number; retry.'));
  }

  private async insert(phoneNumberId: string, phoneNumber: string): Promise<PhoneNumberEntity> {
    const entity = Object.assign(new PhoneNumberEntity(), {
      phoneNumberId,
      phoneNumber,
      wabaId: newGraphId(),
      verifiedName: DEFAULT_VERIFIED_NAME,
      blockSlot: blockSlot(phoneNumber),
      registeredAt: null,
      createdAt: new Date(),
    });
    await this.numbers.insert(entity);
    this.byId.set(entity.phoneNumberId, entity);
    return entity;
  }
}
