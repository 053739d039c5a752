/** The sandbox's review: a name containing `reject` is rejected (with Meta's usual reason), anything else approved. */
export function reviewOutcome(name: string): { outcome: 'APPROVED' | 'REJECTED'; reason: string | null } {
  return name.includes('reject') ? { outcome: 'REJECTED', reason: 'INVALID_FORMAT' } : { outcome: 'APPROVED', reason: null };
}

/** The `message_template_status_update` notification Meta sends to the app when a review ends (WABA-level). */
export function templateStatusNotification(wabaId: string, template: { id: string; name: string; language: string; outcome: string; reason: string | null }, at: Date) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        time: Math.floor(at.getTime() / 1000),
        changes: [
          {
            field: 'message_template_status_update',
            value: {
              event: template.outcome,
              message_template_id: Number(template.id),
              message_template_name: template.name,
              message_template_language: template.language,
              reason: template.reason ?? 'NONE',
            },
          },
        ],
      },
    ],
  };
}
