// placeholder, replaced below
export default function Placeholder() {
  return null;
}
