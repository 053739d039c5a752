import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MediaEntity } from './media.entity';

/** Media files at the sandbox, by media id. */
@Injectable()
export class MediaStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(media: MediaEntity): Promise<void> {
    await this.db.getRepository(MediaEntity).insert(media);
  }

  find(id: string): Promise<MediaEntity | null> {
    return this.db.getRepository(MediaEntity).findOne({ where: { id } });
  }

  /** Uses up one of the file's injected download failures; false when it has none left. */
  async takeInjectedFailure(id: string): Promise<boolean> {
    const [rows] = (await this.db.query(`UPDATE media SET failures_left = failures_left - 1 WHERE id = $1 AND failures_left > 0 RETURNING id`, [id])) as [unknown[], number];
    return rows.length > 0;
  }

  async exists(phoneNumberId: string, id: string): Promise<boolean> {
    return (await this.db.getRepository(MediaEntity).count({ where: { id, phoneNumberId } })) > 0;
  }
}
