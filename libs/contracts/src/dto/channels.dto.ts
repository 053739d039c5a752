/** Channel DTOs (POST /api/v1/channels/whatsapp, PATCH, embedded signup) belong here (issue: WhatsApp for real). */
export {};
