import { api } from "~/server/api.server";
import { exportUserData } from "~/server/profile.server";

// GET /api/profile/export: everything the platform holds about the user, as a JSON download.
export const loader = api({
  access: "user",
  async handler({ db, user }) {
    const data = await exportUserData(db, user.id);
    const day = data.exportedAt.slice(0, 10);
    return new Response(JSON.stringify(data, null, 2), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="unicum-dati-${user.username ?? user.id}-${day}.json"`,
        "Cache-Control": "no-store",
      },
    });
  },
});
