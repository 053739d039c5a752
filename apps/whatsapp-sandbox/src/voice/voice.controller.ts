import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { HangUpDto, PlaceCallDto, SayDto } from './voice.dto';
import { VoiceService, type SandboxCall } from './voice.service';

/** The sandbox's voice test hooks: play a caller (ring, speak, hang up) and read what the caller heard. */
@Controller('_sandbox/voice')
export class SandboxVoiceController {
  constructor(private readonly voice: VoiceService) {}

  @Post('call')
  @HttpCode(200)
  place(@Body() body: PlaceCallDto): Promise<SandboxCall> {
    return this.voice.place(body.from, body.to, body.forge_with_token);
  }

  @Post('say')
  @HttpCode(200)
  say(@Body() body: SayDto): Promise<SandboxCall> {
    return this.voice.say(body.call_sid, body.text);
  }

  @Post('hangup')
  @HttpCode(200)
  hangUp(@Body() body: HangUpDto): Promise<SandboxCall> {
    return this.voice.hangUp(body.call_sid, body.duration_seconds);
  }

  @Get('calls/:sid')
  get(@Param('sid') sid: string): Promise<SandboxCall> {
    return this.voice.get(sid);
  }
}
