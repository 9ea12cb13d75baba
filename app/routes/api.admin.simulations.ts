// GET /api/admin/simulations (list) and POST (create or update, same payload).
import { api, readJson } from "~/server/api.server";
import { SimulationSave } from "~/server/simulation-schemas.server";
import { listSimulations, saveSimulation } from "~/server/simulations.server";

export const loader = api({
  access: "admin",
  async handler({ db }) {
    return listSimulations(db);
  },
});

export const action = api({
  access: "admin",
  async handler({ request, db }) {
    const input = await readJson(request, SimulationSave);
    const { created, drawNotes } = await saveSimulation(db, input);
    return Response.json({ ok: true, id: input.id, created, drawNotes }, { status: created ? 201 : 200 });
  },
});
