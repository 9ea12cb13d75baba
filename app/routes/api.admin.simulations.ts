// GET /api/admin/simulations (list) and POST (create or update, same payload).
import { api, readJson } from "~/server/api.server";
import { SimulationSave } from "~/server/simulation/schemas.server";
import { listSimulations, saveSimulation } from "~/server/simulation/admin.server";

// Teachers see and save only their own simulations (the service checks ownership); admins all.
export const loader = api({
  access: "teacher",
  async handler({ db, user }) {
    return listSimulations(db, user);
  },
});

export const action = api({
  access: "teacher",
  async handler({ request, db, user }) {
    const input = await readJson(request, SimulationSave);
    const { created, drawNotes } = await saveSimulation(db, input, user);
    return Response.json({ ok: true, id: input.id, created, drawNotes }, { status: created ? 201 : 200 });
  },
});
