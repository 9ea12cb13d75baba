// The profile as the profile screen and GET/POST /api/profile describe it (spec section 2, Profile).
export type Profile = {
  username: string | null;
  name: string;
  phone: string | null;
  bio: string | null;
  goal: string | null;
  city: string | null;
  school: string | null;
  schoolYear: number | null;
  birth: string | null;
  cf: string | null;
  address: string | null;
  zip: string | null;
  email: string;
  createdAt: string;
  lastLogin: string | null;
};
